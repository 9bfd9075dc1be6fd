"""Constexpr values host code makes (the drop-in's tests): an IntEnum member
passed for a constexpr, a default read from host data Kiln's compiler cannot
evaluate, and an infinite float passed by value (vLLM's attention kernels:
KV_QUANT_MODE=KVQuantMode.NONE, `FP8_MIN: tl.constexpr = float8_info.min`
with float8_info a torch.finfo, MASK_VALUE=-float('inf'))."""
import enum

import triton
import triton.language as tl


class Mode(enum.IntEnum):
    PLAIN = 0
    CLAMPED = 1


class _Info:
    """Stands for torch.finfo(torch.float8_e4m3fn)."""
    min = -448.0


_info = _Info()


@triton.jit
def fill_kernel(Out, MODE: tl.constexpr, MASK: tl.constexpr,
                LOW: tl.constexpr = _info.min, BLOCK: tl.constexpr = 128):
    offs = tl.arange(0, BLOCK)
    low = tl.full([BLOCK], LOW, tl.float32)
    if MODE == 1:
        low = tl.maximum(low, 0.0)
    tl.store(Out + offs, low)
    tl.store(Out + BLOCK + offs, tl.full([BLOCK], MASK, tl.float32))
