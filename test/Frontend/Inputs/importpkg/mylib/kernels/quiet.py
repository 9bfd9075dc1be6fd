import triton
import triton.language as tl

from mylib.ops.envvals import RELEASE
from mylib.ops.flags import FLAG


@triton.jit
def uses_flag(X, BLOCK: tl.constexpr):
    # FLAG resolves; the `if` beside it cannot be evaluated, which is no error.
    offs = tl.arange(0, BLOCK)
    if FLAG:
        tl.store(X + offs, tl.load(X + offs) + 1.0)


@triton.jit
def uses_release(X):
    # The host-computed value itself is an error, reported once.
    if RELEASE >= "2":
        tl.store(X, 1.0)
