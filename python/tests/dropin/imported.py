"""A kernel whose helpers live in another module, imported relatively and
absolutely (the package root is tests/, from dropin.__package__)."""
import triton
import triton.language as tl

from dropin.helpers import OFFSET
from .helpers import twice


@triton.jit
def twice_plus_offset(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, twice(x) + OFFSET, mask=offs < n)
