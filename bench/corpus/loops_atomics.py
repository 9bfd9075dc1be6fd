"""Loop-carried tiles, atomics (histogram, scatter-add, global sums) and
masked gathers through index loads.

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def horner_kernel(X, Coef, Y, n, degree, BLOCK: tl.constexpr):
    # y = c[0] x^degree + ... + c[degree]: a runtime-length `for` loop carrying
    # an fp32 tile, with one scalar load per iteration.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    acc = tl.zeros([BLOCK], dtype=tl.float32) + tl.load(Coef)
    for i in range(1, degree + 1):
        acc = acc * x + tl.load(Coef + i)
    tl.store(Y + offs, acc, mask=mask)


@triton.jit
def collatz_steps_kernel(X, Steps, n, max_steps, BLOCK: tl.constexpr):
    # A `while` loop on a data-dependent scalar condition carrying two int32
    # tiles and two scalars: the Collatz sequence of every lane, counting the
    # steps until it reaches 1, at most max_steps, stopping early when all
    # lanes are done. (Loop-carried scalars start from runtime values: Triton
    # does not carry Python constants through loops.)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(X + offs, mask=mask, other=1)
    steps = tl.zeros([BLOCK], dtype=tl.int32)
    left = max_steps
    busy = tl.sum((v != 1).to(tl.int32), axis=0)
    while (left > 0) & (busy > 0):
        active = v != 1
        nxt = tl.where((v % 2) == 0, v // 2, 3 * v + 1)
        v = tl.where(active, nxt, v)
        steps += active.to(tl.int32)
        busy = tl.sum((v != 1).to(tl.int32), axis=0)
        left -= 1
    tl.store(Steps + offs, steps, mask=mask)


@triton.jit
def histogram_kernel(X, Hist, n, num_bins, lo, inv_width, BLOCK: tl.constexpr):
    # Bin fp values into `num_bins` equal bins over [lo, lo + num_bins / inv_width);
    # values outside are dropped. One int32 atomic_add per element.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    pos = (x - lo) * inv_width
    b = pos.to(tl.int32)
    ok = mask & (pos >= 0.0) & (b < num_bins)
    tl.atomic_add(Hist + b, 1, mask=ok)


@triton.jit
def scatter_add_kernel(Index, Src, Out, D, stride_src, stride_out, BLOCK_D: tl.constexpr):
    # out[index[i], :] += src[i, :] with fp32 atomics; one source row per
    # program on axis 0, BLOCK_D columns per program on axis 1.
    i = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = cols < D
    dst = tl.load(Index + i)
    v = tl.load(Src + i * stride_src + cols, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(Out + dst * stride_out + cols, v, mask=mask)


@triton.jit
def sq_err_sum_kernel(A, B, Out, n, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    # Sum of squared differences into one fp32 scalar: each program reduces
    # CHUNKS tiles (static_range) and adds one partial sum atomically.
    base = tl.program_id(0) * (BLOCK * CHUNKS)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in tl.static_range(CHUNKS):
        offs = base + c * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(A + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(B + offs, mask=mask, other=0.0).to(tl.float32)
        d = a - b
        acc += d * d
    tl.atomic_add(Out, tl.sum(acc, axis=0))


@triton.jit
def embedding_kernel(Ids, Table, Out, D, stride_t, stride_o, BLOCK_D: tl.constexpr):
    # One token per program: an int64 index load, then a row gather.
    tok = tl.program_id(0)
    row = tl.load(Ids + tok)
    for start in range(0, D, BLOCK_D):
        cols = start + tl.arange(0, BLOCK_D)
        mask = cols < D
        v = tl.load(Table + row * stride_t + cols, mask=mask)
        tl.store(Out + tok * stride_o + cols, v, mask=mask)


@triton.jit
def masked_gather_kernel(X, Idx, Y, n_src, n, fill, BLOCK: tl.constexpr):
    # y[i] = x[idx[i]] where 0 <= idx[i] < n_src, else `fill`: the gather's
    # mask depends on loaded indices.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(Idx + offs, mask=mask, other=-1)
    ok = mask & (idx >= 0) & (idx < n_src)
    v = tl.load(X + idx, mask=ok, other=fill)
    tl.store(Y + offs, v, mask=mask)
