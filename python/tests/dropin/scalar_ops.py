"""A scalar @triton.jit function whose names come from host code: a module
chosen in another file's `try` (through a package's __init__), and names
bound in a `try` here (FlagGems' isclose.py), and a def a host decorator
replaces with the shim's function of that name (FlagGems' use_tl_extra)."""
import triton
import triton.language as tl

from dropin.shimpkg import shim

_pow = shim.pow
try:
    _finite = shim.finitef
except Exception:
    pass


def use_shim(func):
    if hasattr(shim, func.__name__):
        return getattr(shim, func.__name__)
    return func


@use_shim
@triton.jit
def div_rn(x, y):
    return tl.floor(x / y + 0.5)  # the fallback: never what runs here


@triton.jit
def pow_and_finite(x):
    return _pow(x, 3.0) + _finite(x).to(tl.float32) + div_rn(1.0, x)
