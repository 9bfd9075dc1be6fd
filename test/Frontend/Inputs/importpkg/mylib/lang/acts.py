import triton
import triton.language as tl


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)
