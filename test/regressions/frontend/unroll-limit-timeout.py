# Fuzz finding (kiln-fuzz-frontend, timeout): a 4000x4000 static_range nest
# took 2 s under ASan+UBSan+coverage to reach the unrolling limit (0.14 s in
# the normal build). Not a hang: the limit stops it with a precise error.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,*fp32:16,i32,16' \
# RUN:   --emit=tile --verify-diagnostics
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in tl.static_range(4000):
        for j in tl.static_range(4000):
            # expected-error @+1 {{kernel too large: more than 200000 statements after inlining and unrolling}}
            x = i + j
