import triton
import triton.language as tl


@triton.jit
def k(X, B, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    if B is not None:
        x = x + tl.load(B + offs, mask=mask)
    tl.store(Y + offs, x, mask=mask)


@triton.jit
def bad(X, B, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(B + offs, tl.load(X + offs))
