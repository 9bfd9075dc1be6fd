# A Python int (or int constexpr) next to an unsigned value takes its type, as
# in Triton 3.6 (dtype.kind(): bool < integral < floating, signedness is not a
# kind): uint32 // 2 and uint32 % BLOCK divide unsigned, no signedness error
# (checked against Triton 3.6 on the device: arith.divui / arith.remui). A
# negative constant next to an unsigned value stays an error.
# RUN: ln-compile %s --kernel k --signature 'i32,*u32,*i32' -D BLOCK=64 \
# RUN:   --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel neg --signature 'i32,*u32,*i32' \
# RUN:   --emit=tile 2>&1 | FileCheck --check-prefix=NEG %s
import triton
import triton.language as tl


@triton.jit
def k(N, Y, X, BLOCK: tl.constexpr):
    u = N.to(tl.uint32)
    tl.store(Y, u // 2)
    x = tl.load(X + tl.arange(0, 16)).to(tl.uint32)
    tl.store(Y + 1 + tl.arange(0, 16), x % BLOCK)


# CHECK-LABEL: func.func @k(
# CHECK: arith.divui {{.*}} : i32
# CHECK: arith.remui {{.*}} : tensor<16xi32


@triton.jit
def neg(N, Y, X):
    u = N.to(tl.uint32)
    tl.store(Y, u // -2)

# NEG: unsigned-scalars.py:[[@LINE-2]]:{{[0-9]+}}: error: cannot combine an unsigned value with the negative constant -2; cast one of them
