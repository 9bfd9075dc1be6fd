"""`triton.runtime` under Kiln's drop-in."""
from .driver import driver  # noqa: F401  (the object, as in Triton)
from .autotuner import Autotuner, Config, Heuristics, OutOfResources, \
    autotune, heuristics  # noqa: F401
# Not the `jit` decorator: `triton.runtime.jit` is the module, as in Triton
# (host code reads triton.runtime.jit.TensorWrapper).
from .jit import JITFunction, KernelInterface, TensorWrapper, \
    reinterpret  # noqa: F401
from . import errors  # noqa: F401
from .errors import InterpreterError  # noqa: F401

__kiln__ = True
