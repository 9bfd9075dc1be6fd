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
