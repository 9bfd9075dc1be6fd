# In decorator arguments (the host evaluator) `torch.version.hip` is None, as
# it is in kernels and module-level `if`s: FBGEMM's MoE kernels pick their
# autotune configs with `_AMD_CONFIGS if torch.version.hip else _NV_CONFIGS`,
# and the AMD ones set `waves_per_eu`, which the kernel does not take.
# RUN: ln-compile %s --kernel k --list-configs | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp32:16,i32' --config 0 --emit=tile | FileCheck %s --check-prefix=TILE
import torch
import triton
import triton.language as tl
from torch import version

_NV = [triton.Config({"BLOCK": 128}, num_warps=4)]
_AMD = [triton.Config({"BLOCK": 64, "waves_per_eu": 2}, num_warps=8)]


@triton.autotune(configs=_AMD if torch.version.hip else (_NV if version.hip is None else _AMD),
                 key=["n"])
@triton.jit
def k(X, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs) + 1, mask=offs < n)

# CHECK: 0: BLOCK: 128, num_warps: 4
# CHECK-NOT: 1:
# TILE: tile.num_warps = 4
