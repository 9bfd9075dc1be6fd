"""`triton.compiler` on the host: the error classes and CompiledKernel that
host code names (Kiln compiles through libkiln, not this package)."""
from . import errors  # noqa: F401
from .errors import CompilationError, CompileTimeAssertionFailure  # noqa: F401
from ..runtime.compiled import CompiledKernel  # noqa: F401

__kiln__ = True
