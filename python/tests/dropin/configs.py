"""Host helpers the drop-in fixtures import (configs built by a function,
a heuristic from another module)."""
import triton


def block_configs():
    return [triton.Config({"BLOCK": b}, num_warps=w)
            for b, w in ((64, 2), (128, 4), (256, 8))]


def even_n(args):
    return args["n"] % 128 == 0
