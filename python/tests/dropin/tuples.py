"""Kernels taking Python tuples (test_dropin_tuples.py): plain Triton code,
as flash-linear-attention's attnres passes its residual sources (a padded
tuple of tensors indexed with tl.static_range)."""
from typing import NamedTuple

import triton
import triton.language as tl


@triton.jit
def _source(srcs, i: tl.constexpr):
    return srcs[i]


@triton.jit
def mix_sources(out, srcs, weights, N, L: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(L):
        acc += tl.load(_source(srcs, i) + offs, mask=mask) * weights[i]
    tl.store(out + offs, acc, mask=mask)


@triton.jit
def pick_rows(out, pair, N, BLOCK: tl.constexpr):
    # pair: ((x, y), stride, None); a row picks its source with tl.where
    # over pointers, as attnres does.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    p = pair[0][0] + offs * 0
    p = tl.where(offs % 2 == 1, pair[0][1] + offs * 0, p)
    if pair[2] is None:
        tl.store(out + offs * pair[1], tl.load(p + offs, mask=mask), mask=mask)


# Namedtuple arguments and NamedTuple classes built in kernels (Triton 3.3+:
# a namedtuple argument is specialized element by element and its fields are
# read by name).
class Strided(NamedTuple):
    ptr: tl.tensor
    n: int
    stride: int


class Affine(NamedTuple):
    scale: float
    shift: float = 0.0


@triton.jit
def _masked(t, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    return t.ptr + offs * t.stride, offs < t.n


@triton.jit
def affine_copy(src, dst, coef, BLOCK: tl.constexpr):
    # src, dst: Strided; coef: Affine (a constexpr default filled in here).
    sp, smask = _masked(Strided(src.ptr, n=src.n, stride=src.stride), BLOCK)
    dp, dmask = _masked(dst, BLOCK)
    c = Affine(coef.scale)
    tl.store(dp, tl.load(sp, mask=smask) * c.scale + coef.shift + c.shift,
             mask=dmask & smask)


# @triton.jit functions passed for constexpr parameters (triton_kernels'
# ACTIVATION_FN, an epilogue chosen by the host), also imported ones.
@triton.jit
def leaky(x, slope: tl.constexpr):
    return tl.where(x >= 0, x, x * slope)


@triton.jit
def apply_fn(x_ptr, N, FN: tl.constexpr, ARG: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    tl.store(x_ptr + offs, FN(tl.load(x_ptr + offs, mask=mask), ARG), mask=mask)


# Triton's closure pattern: a namedtuple holding a @triton.jit function and
# the arguments it captured, passed to the kernel (the function part is a
# compile-time value, specialized on).
class Closure(NamedTuple):
    fn: tl.constexpr
    captured: tuple


@triton.jit
def apply_closure(x_ptr, N, closure, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    y = closure.fn(tl.load(x_ptr + offs, mask=mask), *closure.captured)
    tl.store(x_ptr + offs, y, mask=mask)


@triton.jit
def affine(x, a, b):
    return x * a + b


# A function passed to a parameter without a `tl.constexpr` annotation:
# Triton specializes on it all the same (a JITFunction is always constexpr).
@triton.jit
def apply_fn_plain(x_ptr, N, fn, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    tl.store(x_ptr + offs, fn(tl.load(x_ptr + offs, mask=mask), 2.0), mask=mask)


# Triton's own tensor-descriptor tests: a shape passed as a tuple of
# tl.constexpr (its elements are compile-time: len() and indexing give
# constexprs), beside a runtime tuple of strides.
@triton.jit
def fill_block(out_ptr, strides, BLOCK_SHAPE):
    ndim: tl.constexpr = len(BLOCK_SHAPE)
    tl.static_assert(ndim == 2)
    r = tl.arange(0, BLOCK_SHAPE[0])[:, None]
    c = tl.arange(0, BLOCK_SHAPE[1])[None, :]
    tl.store(out_ptr + r * strides[0] + c * strides[1], (r + c).to(tl.float32))


# A tuple (torch.Size is one) for a tl.constexpr parameter.
@triton.jit
def fill_shape(out_ptr, shape: tl.constexpr):
    r = tl.arange(0, shape[0])
    tl.store(out_ptr + r, r.to(tl.float32) * shape[1])
