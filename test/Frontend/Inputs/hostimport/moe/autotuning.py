# Config helpers in the style of unsloth's grouped GEMM
# (kernels/moe/grouped_gemm/kernels/autotuning.py): defaults from module
# lists, arguments normalized to lists, one triton.Config per element of
# itertools.product, a flag auto-detected from a module constant.
import logging
from itertools import product

import triton

logger = logging.getLogger(__name__)

BLOCK_M_SIZES = [64, 128]
BLOCK_N_SIZES = [64, 128]
NUM_WARPS = [4, 8]
NUM_STAGES = [3, 4]
_HAS_TMA = False


def as_list(val):
    if val is None:
        return None
    elif isinstance(val, list):
        return val
    else:
        return [val]


def all_as_lists(args):
    return [as_list(arg) for arg in args]


def get_forward_configs(
    BLOCK_M=BLOCK_M_SIZES,
    BLOCK_N=BLOCK_N_SIZES,
    USE_TMA=None,  # detected when not given
    num_warps=NUM_WARPS,
    num_stages=NUM_STAGES,
    num_ctas=1,
):
    if USE_TMA is None:
        USE_TMA = _HAS_TMA
    (
        BLOCK_M,
        BLOCK_N,
        USE_TMA,
        num_warps,
        num_stages,
        num_ctas,
    ) = all_as_lists([BLOCK_M, BLOCK_N, USE_TMA, num_warps, num_stages, num_ctas])
    configs = []
    for (block_m, block_n, w, s, tma, ctas) in product(
        BLOCK_M, BLOCK_N, num_warps, num_stages, USE_TMA, num_ctas
    ):
        configs.append(
            triton.Config(
                dict(BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, USE_TMA=tma),
                num_warps=w,
                num_stages=s,
                num_ctas=ctas,
            )
        )
    return configs


def prune_forward_configs(configs, args, **kwargs):
    logger.debug(f"pruning {len(configs)} configs")
    return [c for c in configs if c.kwargs["BLOCK_SIZE_M"] <= kwargs["NUM_TOKENS"]]
