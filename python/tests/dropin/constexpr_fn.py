"""@triton.constexpr_function helpers called from a kernel (Triton 3.5+)."""
import math

import triton
import triton.language as tl


@triton.constexpr_function
def log_odds(p):
    return math.log((1.0 - p) / p)


@triton.jit
def scale_by_log_odds(x_ptr, out_ptr, P: tl.constexpr,
                      BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * log_odds(P))
