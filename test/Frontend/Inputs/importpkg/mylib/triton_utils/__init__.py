# Re-exports triton where it is installed, placeholders elsewhere: kernels
# then import `triton` and `tl` from here (vLLM's `from vllm.triton_utils
# import tl, triton`).
from typing import TYPE_CHECKING

from mylib.triton_utils.importing import HAS_TRITON

if TYPE_CHECKING or HAS_TRITON:
    import triton
    import triton.language as tl
else:
    triton = None
    tl = None

LOG2E = 1.4426950408889634
