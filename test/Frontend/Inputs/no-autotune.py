import triton


@triton.jit
def k(X):
    pass
