"""`triton.runtime` under Kiln's drop-in."""
from .driver import driver  # noqa: F401  (the object, as in Triton)
from .autotuner import Autotuner, Config, Heuristics, OutOfResources, \
    autotune, heuristics  # noqa: F401
from .jit import JITFunction, KernelInterface, jit  # noqa: F401
from . import errors  # noqa: F401

__kiln__ = True
