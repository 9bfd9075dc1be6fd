"""Kernels taking Python tuples (test_dropin_tuples.py): plain Triton code,
as flash-linear-attention's attnres passes its residual sources (a padded
tuple of tensors indexed with tl.static_range)."""
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
