# `triton` and `tl` from a module that decides in a `try` whether to use them.
from mylib.triton_probe import tl, triton


@triton.jit
def probed_kernel(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs) * 2.0)
