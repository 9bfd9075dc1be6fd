import triton


@triton.jit
def square(x):
    return x * x
