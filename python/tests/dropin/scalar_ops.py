"""A scalar @triton.jit function whose names come from host code: a module
chosen in another file's `try` (through a package's __init__), and names
bound in a `try` here (FlagGems' isclose.py)."""
import triton
import triton.language as tl

from dropin.shimpkg import shim

_pow = shim.pow
try:
    _finite = shim.finitef
except Exception:
    pass


@triton.jit
def pow_and_finite(x):
    return _pow(x, 3.0) + _finite(x).to(tl.float32)
