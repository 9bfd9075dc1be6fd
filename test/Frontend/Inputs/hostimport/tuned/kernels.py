import triton
import triton.language as tl

from .configs import CONFIGS, get_configs, prune, BLOCK_MIN
from . import configs as cfg
from common.defaults import DEFAULT_WARPS
import common.defaults


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k_list(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=get_configs([32, 128], num_warps=DEFAULT_WARPS), key=["n"],
                 prune_configs_by={"early_config_prune": prune})
@triton.jit
def k_call(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=get_configs([64, 256]), key=["n"])
@triton.jit
def k_defaults(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.heuristics({"BLOCK": lambda args: max(BLOCK_MIN, triton.next_power_of_2(args["n"]))})
@triton.jit
def k_heur(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.heuristics(cfg.HEURISTICS)
@triton.jit
def k_heur_module(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=common.defaults.configs_for(16), key=["n"])
@triton.jit
def k_module_attr(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)
