"""`triton.language.extra` (`from triton.language.extra import libdevice`)."""
from . import cuda, libdevice  # noqa: F401

__kiln__ = True
