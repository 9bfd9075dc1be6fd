"""Reductions of 2-D tiles along axis 1 and axis 0, in `for` and `while` loops.

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(X, Out, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # BLOCK_M rows per program; a 2-D fp32 tile carried through the loop over
    # the columns, reduced along axis 1 at the end.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        acc += x.to(tl.float32)
    tl.store(Out + rows, tl.sum(acc, axis=1), mask=rows < M)


@triton.jit
def row_dot_kernel(A, B, Out, M, HEAD: tl.constexpr, BLOCK_M: tl.constexpr):
    # Per-row dot products of two contiguous [M, HEAD] matrices stored one
    # fp32 per row (the shape of an attention backward's "delta" pass): the
    # loads are contiguous along HEAD, the store along the rows.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, HEAD)
    inside = (rows < M)[:, None]
    a = tl.load(A + rows[:, None] * HEAD + cols[None, :], mask=inside, other=0.).to(tl.float32)
    b = tl.load(B + rows[:, None] * HEAD + cols[None, :], mask=inside, other=0.).to(tl.float32)
    tl.store(Out + rows, tl.sum(a * b, axis=1), mask=rows < M)


@triton.jit
def col_max_kernel(X, Out, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # BLOCK_N columns per program; walks down the rows keeping a running
    # maximum tile, reduced along axis 0.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.full([BLOCK_M, BLOCK_N], -float("inf"), tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask,
                    other=-float("inf"))
        acc = tl.maximum(acc, x.to(tl.float32))
    tl.store(Out + cols, tl.max(acc, axis=0), mask=cols < N)


@triton.jit
def col_sum_while_kernel(X, Out, M, N, stride, rows_per_program,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Few programs along axis 1 split the rows; each sums its row range in a
    # `while` loop into a 2-D tile, reduces it along axis 0 and adds the
    # partial column sums atomically (Out must be zero).
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    row = tl.program_id(1) * rows_per_program
    end = tl.minimum(row + rows_per_program, M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    while row < end:
        rows = row + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < end) & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        acc += x.to(tl.float32)
        row += BLOCK_M
    tl.atomic_add(Out + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def row_argmax_kernel(X, Idx, Val, N, stride, BLOCK: tl.constexpr):
    # argmax without tl.argmax: the maximum, then the smallest column holding it.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    best = tl.max(x, axis=0)
    idx = tl.min(tl.where(x == best, cols, BLOCK), axis=0)
    tl.store(Idx + row, idx)
    tl.store(Val + row, best)


@triton.jit
def int_row_range_kernel(X, Out, N, stride, BLOCK: tl.constexpr):
    # int32 min and max of each row (one row per program, looping over
    # chunks with two loop-carried int tiles); Out[row] = max - min.
    row = tl.program_id(0)
    lo = tl.full([BLOCK], 2147483647, tl.int32)
    hi = tl.full([BLOCK], -2147483647, tl.int32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + row * stride + cols, mask=mask, other=0)
        lo = tl.where(mask, tl.minimum(lo, x), lo)
        hi = tl.where(mask, tl.maximum(hi, x), hi)
    tl.store(Out + row, tl.max(hi, axis=0) - tl.min(lo, axis=0))
