"""`triton.backends.compiler`: GPUTarget, which host code builds to name a
device (`GPUTarget("cuda", 90, 32)`)."""
from ..runtime.driver import GPUTarget  # noqa: F401

__kiln__ = True
