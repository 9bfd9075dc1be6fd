"""A @triton.jit helper and a constexpr constant in their own module."""
import triton
import triton.language as tl

OFFSET: tl.constexpr = tl.constexpr(7)


@triton.jit
def twice(x):
    return x * 2


@triton.jit
def scale_by(x, factor: tl.constexpr):
    return x * factor
