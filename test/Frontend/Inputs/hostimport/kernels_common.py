# `from kernels_common import get_configs` of host-imported-values.py, found
# when this directory is a package root (-I).
import triton


def get_configs(block):
    return [triton.Config({"B": block}, num_warps=w) for w in (4, 8)]
