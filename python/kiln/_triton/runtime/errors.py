"""`triton.runtime.errors`."""
from kiln.errors import CompilationError  # noqa: F401
from .autotuner import OutOfResources  # noqa: F401

__kiln__ = True


class InterpreterError(RuntimeError):
    pass


class PTXASError(RuntimeError):
    pass
