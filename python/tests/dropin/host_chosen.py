"""Module-level names chosen by host code, as Liger-Kernel chooses its
libdevice import by Triton's version: Python knows which branch ran and
passes the values to Kiln as host bindings (test_dropin_bindings.py)."""
import operator
import os
import time

import triton
import triton.language as tl

from . import host_chosen_consts as consts
from .host_chosen_helpers import act


def compare_version(package, op, version):
    """Liger-Kernel's check of an installed package's version."""
    have = tuple(int(p) for p in triton.__version__.split(".")[:3])
    return op(have, tuple(int(p) for p in version.split(".")))


def is_npu_available():
    return False


# Triton 3.6 here: the libdevice spelling.
if compare_version("triton", operator.ge, "3.0.0") and not is_npu_available():
    try:
        from triton.language.extra.libdevice import tanh
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import tanh
else:
    from triton.language.math import tanh

# A version no Triton has: the tl.math spelling.
if compare_version("triton", operator.ge, "99.0.0"):
    from triton.language.extra.libdevice import rsqrt
else:
    from triton.language.math import rsqrt

if os.environ.get("KILN_TEST_BIG_BLOCKS"):
    BLOCK = 256
    SCALE = 6.0
    DTYPE = tl.float16
    MODE = "mean"
else:
    BLOCK = 128
    SCALE = 5.0
    DTYPE = tl.float32
    MODE = "sum"

def _offset(quarters):
    """A host helper computing a kernel constant (flash-linear-attention's
    softplus.py builds its inline assembly this way)."""
    return quarters / 4


OFFSET: tl.constexpr = tl.constexpr(_offset(10))
STARTED = time.time()  # computed, but no tl.constexpr: never a binding

if os.environ.get("KILN_TEST_BIG_BLOCKS"):
    @triton.jit
    def finish(y):
        return y * 0.25
else:
    @triton.jit
    def finish(y):
        return y * 0.5


@triton.jit
def rsqrt_kernel(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.static_assert((BLOCK == 128) == (MODE == "sum"))
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = finish(act(rsqrt(x) * SCALE) + consts.BIAS) + OFFSET
    tl.store(out_ptr + offs, y.to(DTYPE), mask=offs < n)


@triton.jit
def tanh_kernel(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tanh(x), mask=offs < n)
