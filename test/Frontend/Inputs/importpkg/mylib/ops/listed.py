"""A module whose __all__ limits what `import *` binds."""
import triton

__all__ = ["twice"]


@triton.jit
def twice(x):
    return x * 2.0


@triton.jit
def thrice(x):
    return x * 3.0
