"""Kernels made by calling the decorators (unsloth's form): `f = triton.jit(f)`
after `def f`, then `f = triton.heuristics({...})(f)`; a helper made the same
way."""
import triton
import triton.language as tl


def plus_one(x):
    return x + 1.0


plus_one = triton.jit(plus_one)


def bump(x, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = plus_one(tl.load(x + offs, mask=offs < n))
    if EVEN:
        v = v * 2
    tl.store(x + offs, v, mask=offs < n)


SEEN = []


def even(args):
    SEEN.append(args["n"])
    return args["n"] % 2 == 0


bump = triton.jit(bump)
bump = triton.heuristics({"EVEN": even})(bump)
