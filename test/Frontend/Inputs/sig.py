import triton
import triton.language as tl


@triton.jit
def k(X, Y, stride, N, eps, BLOCK: tl.constexpr, FLAG: tl.constexpr = False):
    pass
