"""A helper file whose libdevice import is chosen by host code, as
Liger-Kernel's ops/utils.py does (host-bindings.py binds it with PATH::)."""
import operator

import triton

from liger_kernel.utils import compare_version

if compare_version("triton", operator.ge, "3.0.0"):
    from triton.language.extra.libdevice import tanh
else:
    from triton.language.math import tanh


@triton.jit
def act(x):
    return tanh(x)
