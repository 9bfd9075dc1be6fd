# tl.map_elementwise: the @triton.jit scalar function is inlined into the body
# of a tile.map_elementwise with scalar arguments, so a runtime `if` or loop
# in it runs per element (scf on scalars, branches in the PTX) instead of both
# sides of a tl.where. pack=2 hands the function 2 scalars per tensor.
# RUN: ln-compile %s --kernel selu_k --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=256 --emit=tile | FileCheck %s --check-prefix=SELU
# RUN: ln-compile %s --kernel selu_k --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=256 | FileCheck %s --check-prefix=SELU-PTX
# RUN: ln-compile %s --kernel steps_k --signature '*i32:16,*i32:16,i32' -D BLOCK=128 --emit=tile | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel pairs_k --signature '*fp16:16,*fp32:16,*fp16:16,*fp32:16' -D BLOCK=1024 --emit=tile | FileCheck %s --check-prefix=PAIRS
import triton
import triton.language as tl


@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


# SELU: tile.map_elementwise(%{{.*}}, %{{.*}}) pack = 1 : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32> {
# SELU-NEXT: ^bb0(%[[X:.*]]: f32, %[[A:.*]]: f32):
# SELU: arith.cmpf ogt, %[[X]]
# SELU-NEXT: scf.if
# SELU: math.exp
# SELU: tile.yield
# The taken side only: a branch per element owned by the thread.
# SELU-PTX: @{{%p[0-9]+}} bra
# SELU-PTX: ex2.approx
@triton.jit
def selu_k(X, A, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    y = tl.map_elementwise(selu_scalar, x, tl.load(A))
    tl.store(Y + offs, y, mask=offs < N)


@triton.jit
def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


# LOOP: tile.map_elementwise(%{{.*}}) pack = 1 : (tensor<128xi32>) -> tensor<128xi32>
# LOOP: scf.while
# LOOP: tile.yield %{{.*}} : i32
@triton.jit
def steps_k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=1)
    tl.store(Y + offs, tl.map_elementwise(collatz_steps, x), mask=offs < N)


@triton.jit
def scale_and_shift(a0, a1, b0, b1):
    # pack=2: two elements of each tensor, results in order (s0, s1, d0, d1).
    # Which two elements share a call is the layout's choice (Triton: two
    # registers of one thread), so each slot is computed on its own.
    return a0 * 2, a1 * 2, b0 + 1.0, b1 + 1.0


# PAIRS: tile.map_elementwise(%{{.*}}, %{{.*}}) pack = 2 : (tensor<1024xf16>, tensor<1024xf32>) -> (tensor<1024xf16>, tensor<1024xf32>)
# PAIRS-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f32):
# PAIRS: tile.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f16, f16, f32, f32
@triton.jit
def pairs_k(X, Z, Y, W, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s, d = tl.map_elementwise(scale_and_shift, tl.load(X + offs), tl.load(Z + offs), pack=2)
    tl.store(Y + offs, s)
    tl.store(W + offs, d)
