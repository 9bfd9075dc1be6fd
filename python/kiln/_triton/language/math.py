"""`triton.language.math` on the host (kernels only)."""
from .core import builtin_namespace

__kiln__ = True
_table, __getattr__ = builtin_namespace("triton.language.math", ())
