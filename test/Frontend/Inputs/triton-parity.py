import triton
import triton.language as tl


@triton.jit
def abs_kernel(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.abs(tl.load(X + offs)))


@triton.jit
def abs_upcast_kernel(X, Y, BLOCK: tl.constexpr):
    # LLVM folds fptrunc(fabs(fpext x)) to an fp16 fabs: still a sign-bit clear.
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.abs(tl.load(X + offs).to(tl.float32)))


@triton.jit
def clip_kernel(X, Z, Y, BLOCK: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    z = tl.load(Z + offs)
    if MODE == 0:
        y = tl.clamp(x, -z, z)
    elif MODE == 1:
        y = tl.clamp(x, -6.0, 6.0, propagate_nan=tl.PropagateNan.ALL)
    else:
        y = tl.clamp(x, -1.5, z)
    tl.store(Y + offs, y)


@triton.jit
def fp8_to_bf16(Q, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(Q + offs).to(tl.bfloat16))
