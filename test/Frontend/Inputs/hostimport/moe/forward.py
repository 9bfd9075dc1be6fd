import triton
import triton.language as tl

from .autotuning import (
    get_forward_configs,
    prune_forward_configs,
)


@triton.autotune(
    configs=get_forward_configs(),
    prune_configs_by={"early_config_prune": prune_forward_configs},
    key=["N"],
)
@triton.jit
def grouped_forward(x_ptr, y_ptr, NUM_TOKENS, N: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                    BLOCK_SIZE_N: tl.constexpr, USE_TMA: tl.constexpr = False):
    offs = tl.arange(0, BLOCK_SIZE_M)[:, None] * N + tl.arange(0, BLOCK_SIZE_N)[None, :]
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


@triton.autotune(configs=get_forward_configs(BLOCK_M=32, num_warps=4, num_stages=2, USE_TMA=True),
                 key=["N"])
@triton.jit
def grouped_forward_small(x_ptr, y_ptr, NUM_TOKENS, N: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
                          BLOCK_SIZE_N: tl.constexpr, USE_TMA: tl.constexpr = False):
    offs = tl.arange(0, BLOCK_SIZE_M)[:, None] * N + tl.arange(0, BLOCK_SIZE_N)[None, :]
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))
