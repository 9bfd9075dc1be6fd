import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq

from mylib import lang
from mylib.ops.cyc_a import VALUE


@triton.jit
def uses_subpackage(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = lang.acts.relu(lang.square(tl.load(X + offs)))
    if cuda_capability_geq(9, 0):
        x = x + 1.0
    tl.store(X + offs, x)


@triton.jit
def uses_cycle(X):
    tl.store(X, VALUE)
