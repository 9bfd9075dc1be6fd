# Reached by absolute imports (`from common.defaults import ...`, package
# root given with -I).
import triton

DEFAULT_WARPS = [4, 8]
DEFAULT_STAGES = [2, 3]


def configs_for(block):
    return [triton.Config({"BLOCK": block}, num_warps=w) for w in DEFAULT_WARPS]
