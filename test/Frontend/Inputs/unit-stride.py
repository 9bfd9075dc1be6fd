import triton
import triton.language as tl


@triton.jit
def strided_copy(X, Y, stride, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs * stride, mask=mask)
    tl.store(Y + offs, x, mask=mask)
