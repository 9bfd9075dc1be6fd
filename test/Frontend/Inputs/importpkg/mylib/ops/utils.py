"""@triton.jit helpers and constants imported by ../kernels/*.py."""
import triton
import triton.language as tl

FACTOR: tl.constexpr = tl.constexpr(3)


@triton.jit
def scaled(x, factor):
    return x * factor


@triton.jit
def offsets(BLOCK: tl.constexpr):
    return tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
