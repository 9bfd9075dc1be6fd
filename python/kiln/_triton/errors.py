"""`triton.errors`: TritonError, the base of the errors a compile or a
launch raises (Kiln's own KilnError, so `except triton.TritonError` catches
every Kiln error)."""
from kiln.errors import KilnError as TritonError  # noqa: F401

__kiln__ = True
