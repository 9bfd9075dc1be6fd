import triton
import triton.language as tl

from mylib import lang


class Local:
    @staticmethod
    @triton.jit
    def twice(x):
        return x * 2.0

    @staticmethod
    @triton.jit
    def kernel(X):
        tl.store(X, 1.0)


@triton.jit
def uses_classes(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, Local.twice(lang.acts.Act.forward(tl.load(X + offs))))


@triton.jit
def uses_host_method(X):
    tl.store(X, lang.acts.Act.host_only(1.0))


@triton.jit
def uses_class_constant(X):
    tl.store(X, lang.acts.Act.SCALE)
