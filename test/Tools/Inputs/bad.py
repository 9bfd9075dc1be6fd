import triton
import triton.language as tl


@triton.jit
def bad(X, n):
    tl.store(X, undefined_name)
