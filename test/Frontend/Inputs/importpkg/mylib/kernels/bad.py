"""Imports that do not resolve (errors-imports.test)."""
import triton
import triton.language as tl

from .missing import helper
from mylib.ops.nothere import other
from mylib.ops.utils import not_defined
from ..ops.broken_syntax import helper as broken_helper


@triton.jit
def uses_missing(X):
    helper(X)


@triton.jit
def uses_nothere(X):
    other(X)


@triton.jit
def uses_undefined(X):
    not_defined(X)


@triton.jit
def uses_broken(X):
    broken_helper(X)


from mylib.ops.utils import host_flag

if host_flag(3, 6):
    HAS_FEATURE = True
else:
    HAS_FEATURE = False


@triton.jit
def uses_host_if(X):
    tl.store(X, HAS_FEATURE)


@triton.jit
def calls_host_fn(X):
    tl.store(X, host_flag(3, 6))
