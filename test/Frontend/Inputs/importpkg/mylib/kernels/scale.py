"""Relative and absolute imports of helpers and constants, and the
libdevice import spelled with a fallback (imports.test)."""
import triton
import triton.language as tl

import mylib.ops.utils as u
from mylib.ops import consts
from ..ops.utils import FACTOR, scaled
from .local import double

try:
    from triton.language.math import rsqrt
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import rsqrt


@triton.jit
def scale_kernel(X, Y, N, BLOCK: tl.constexpr):
    offs = u.offsets(BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    y = scaled(x, FACTOR) + double(x) + consts.BIAS
    tl.store(Y + offs, y + rsqrt(x), mask=offs < N)
