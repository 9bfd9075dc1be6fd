# The autotune configs of kernels.py in their own module, as libraries keep
# them: a list, a function of the block sizes (its defaults read this
# module's names and another module's), a prune function and a heuristics
# dict whose lambda reads this module's constant.
import triton
from itertools import product

from .tuning import pick_warps
from common.defaults import DEFAULT_STAGES

BLOCK_MIN = 32
_SCALE = 2

CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 128) for w in (4, 8)]


def get_configs(blocks, num_warps=None, num_stages=DEFAULT_STAGES):
    if num_warps is None:
        num_warps = [pick_warps(b) for b in blocks]
    out = []
    for b, w, s in product(blocks, num_warps, num_stages):
        out.append(triton.Config({"BLOCK": b}, num_warps=w, num_stages=s))
    return out


def prune(configs, named_args, **kwargs):
    n = named_args["n"]
    return [c for c in configs if c.kwargs["BLOCK"] <= max(n, BLOCK_MIN)]


HEURISTICS = {"BLOCK": lambda args: max(BLOCK_MIN, triton.next_power_of_2(args["n"]) // _SCALE)}
