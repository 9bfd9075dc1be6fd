"""`triton.compiler.errors`: Kiln's CompilationError, and
CompileTimeAssertionFailure for a failed `tl.static_assert` (raised as such
by the drop-in)."""
from kiln.errors import CompilationError

__kiln__ = True


class CompileTimeAssertionFailure(CompilationError):
    """A `tl.static_assert` that failed while compiling."""
