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


def host_flag(major, minor):
    """A host function (not @triton.jit): kernels cannot call it, and a
    module-level `if` on it is not evaluated by Kiln."""
    return (major, minor) >= (3, 0)
