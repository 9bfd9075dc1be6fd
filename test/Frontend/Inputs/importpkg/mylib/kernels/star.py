import triton
import triton.language as tl

from ..ops.starred import *  # noqa: F403
from mylib.ops.listed import *  # noqa: F403


@triton.jit
def uses_star(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, twice(add_bias(tl.load(X + offs))))  # noqa: F405


@triton.jit
def uses_unlisted(X):
    tl.store(X, thrice(tl.load(X)))  # noqa: F405


@triton.jit
def uses_private(X):
    tl.store(X, _private(tl.load(X)))  # noqa: F405
