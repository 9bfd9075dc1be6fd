# Fuzz finding (kiln-fuzz-frontend, timeout > 2 s, 2026-11-23): a mutant of
# errors-control.py whose 4000 x 4000 `tl.static_range` nest generated 200000
# statements one by one before the budget stopped it (0.15 s here, ~2 s under
# ASan+UBSan+coverage). The nest now fails after one generation of the inner
# body, at the same place and with the same message; errors in the body's
# first generation still come first.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,*fp32:16,i32,16' \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in tl.static_range(100):
        for j in tl.static_range(100):
            for m in tl.static_range(0, 100, 2):
                # expected-error @+1 {{kernel too large: more than 200000 statements after inlining and unrolling}}
                x = i + j + m
                y = x

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in tl.static_range(4000):
        for j in tl.static_range(4000):
            # expected-error @+1 {{name `zz` is not defined}}
            x = zz + j

# -----
# Just under the budget: 40 x 40 x 2 statements, unrolled in full.
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    acc = 0
    for i in tl.static_range(40):
        for j in tl.static_range(40):
            x = i + j
            acc += x
    tl.store(X, acc)
