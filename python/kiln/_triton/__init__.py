"""Kiln's drop-in `triton`: existing Triton code runs on Kiln unchanged
(`python -m kiln.run script.py`, or `import kiln; kiln.install()` before
triton is imported). Kernels compile through libkiln from their source
files; decorators, autotuning and the launch path are this Python package.
See docs/dropin.md."""
__version__ = "3.6.0"
__kiln__ = True

from .runtime import (Autotuner, Config, Heuristics, JITFunction,  # noqa
                      KernelInterface, OutOfResources, autotune, heuristics)
from .runtime.jit import TensorWrapper, jit, reinterpret  # noqa: F401
from .runtime.errors import CompilationError  # noqa: F401
from . import compiler, knobs, language, runtime, testing, tools  # noqa: F401
from .errors import TritonError  # noqa: F401
from .language.core import constexpr_function  # noqa: F401

_allocator = None


def set_allocator(allocator):
    """Recorded only: Kiln's kernels need no global scratch allocator."""
    global _allocator
    _allocator = allocator


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


def must_use_result(x, s=True):
    return x


__all__ = ["autotune", "cdiv", "Config", "constexpr_function", "heuristics",
           "jit", "knobs",
           "JITFunction", "KernelInterface", "language", "next_power_of_2",
           "OutOfResources", "reinterpret", "TensorWrapper", "runtime", "testing", "tools",
           "__version__", "set_allocator"]
