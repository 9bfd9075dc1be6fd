# `triton` and `tl` re-exported by another module of the package.
from importlib.util import find_spec

import torch

from mylib.triton_utils import LOG2E, tl, triton

HAS_NUMPY = find_spec("numpy") is not None


@triton.jit
def exp2_scale(x, scale):
    return tl.exp2(x * scale * LOG2E)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4),
                          triton.Config({"BLOCK": 256}, num_warps=8)], key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def reexported_kernel(X, Y, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = None if EVEN else offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, exp2_scale(x, 0.5), mask=mask)


@triton.jit
def uses_host_spec(X):
    if HAS_NUMPY:
        tl.store(X, 1.0)


def host_helper(n):
    return triton.cdiv(n, 128)
