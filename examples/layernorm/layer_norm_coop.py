"""The cooperative LayerNorm / RMSNorm backward (built into the runtime beside
layer_norm_fast.py; planNorm's Cooperative variant).

The programs of a group split a row block's columns and exchange each row's
partial sums through global memory, so x and dy are read once from DRAM at
any N. The programs of a group must run at the same time: the runtime
launches the grid cooperatively (Triton's launch_cooperative_grid=True), so
the driver runs every program at once or refuses the launch. Valid Triton;
the Python host side is bench/layernorm_host.py. _dx_post is
layer_norm_fast.py's (a file is one module).
"""
import triton
import triton.language as tl


@triton.jit
def _dx_post(dx, rows, cols, mask, DRES, DRES_IN, ROWSCALE, stride_dres,
             stride_dres_in, M, N, dropout_p, seed, HAS_DRES: tl.constexpr,
             STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
             HAS_ROWSCALE: tl.constexpr):
    # dx: fp32 [ROWS, BLOCK_N], the gradient of the pre-norm x'; returns the
    # gradient of the kernel's x input.
    if HAS_DRES:
        dr = tl.load(DRES + rows.to(tl.int64)[:, None] * stride_dres +
                     cols[None, :], mask=mask, other=0.)
        dx += dr.to(tl.float32)
    if STORE_DRES_IN:
        tl.store(DRES_IN + rows.to(tl.int64)[:, None] * stride_dres_in +
                 cols[None, :], dx, mask=mask)
    if HAS_DROPOUT:
        keep = tl.rand(seed, rows[:, None] * N + cols[None, :]) > dropout_p
        dx = tl.where(keep, dx / (1.0 - dropout_p), 0.)
    if HAS_ROWSCALE:
        scale = tl.load(ROWSCALE + rows, mask=rows < M, other=1.)
        dx = dx * scale.to(tl.float32)[:, None]
    return dx


@triton.jit
def _ticket_chunk(TICKET, N, BLOCK_N: tl.constexpr):
    # This program's place, in start order (a ticket, not program_id, so
    # that the programs of a group that wait for one another have started):
    # the row's chunk count, its chunk, its group, the chunk's columns.
    chunks = tl.cdiv(N, BLOCK_N)
    ticket = tl.atomic_add(TICKET, 1)
    chunk = ticket % chunks
    cols = chunk * BLOCK_N + tl.arange(0, BLOCK_N)
    return chunks, chunk, ticket // chunks, cols, cols < N


@triton.jit
def _row_words(STATS, row, chunks, slot, smask, live):
    # The row's [CHUNKS_P2, 2] exchange words (tag 1 << 32 where others are
    # masked off), read past L1.
    base = STATS + row.to(tl.int64) * chunks * 2
    return tl.load(base + slot, mask=smask & live, other=1 << 32,
                   volatile=True)


@triton.jit
def _wait_row(STATS, row, chunks, slot, smask, live):
    # Spins (bounded) until every chunk of the row has published its words;
    # returns the words of the last poll. Each word is loaded by several
    # warps (the tensor is smaller than the program), each at its own time,
    # and the condition may be decided by another warp's copy: a copy read
    # before its word was published reads as NaN (_word_values), and the
    # caller reads the words again when a NaN reaches its results.
    words = _row_words(STATS, row, chunks, slot, smask, live)
    tries = 0
    while (tl.min(tl.min(words >> 32, axis=1), axis=0) == 0) & \
            (tries < 4194304):
        words = _row_words(STATS, row, chunks, slot, smask, live)
        tries += 1
    return words


@triton.jit
def _word_values(words, smask):
    # fp32 values of tagged words; NaN for a word never published (the
    # bounded wait gave up: a wrong row shows, it does not hang).
    val = (words & 0xFFFFFFFF).to(tl.int32).to(tl.float32, bitcast=True)
    val = tl.where((words >> 32) != 0, val, float("nan"))
    return tl.where(smask, val, 0.)


@triton.jit
def _norm_bwd_coop(
    X, W, B, DY, DX, W1, DY1, DRES, DRES_IN, ROWSCALE, MEAN, RSTD,
    DW_PART, DB_PART, DW1_PART, DB1_PART, STATS, TICKET,
    stride_x, stride_dy, stride_dx, stride_dres, stride_dres_in,
    M, N, rows_per_program, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_DRES: tl.constexpr,
    STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
    CHUNKS_P2: tl.constexpr, AHEAD: tl.constexpr,
):
    """Rows of many tiles with x and dy read once from DRAM. The chunks =
    cdiv(N, BLOCK_N) programs of a group own one column chunk each of the
    same contiguous row block; per row each adds its chunk's dw/db,
    publishes its chunk's sums of xhat * g and g, and finishes the previous
    row (the wait overlaps this row's loads and reductions): it waits for
    that row's sums (read again if a stale copy shows, see _wait_row), adds
    them in chunk order (deterministic), reads that row's chunk again
    (L1/L2, as _norm_bwd_cols) and writes its dx. A sum goes out as one
    64-bit word, (1 << 32) | its fp32 bits, in STATS (int64 [M, chunks, 2],
    zeroed): written once and atomically, so a nonzero high half says it is
    there. AHEAD: the next row's x and dy are loaded before this row is
    reduced. Programs take (group, chunk) from a ticket (TICKET: int32,
    zeroed) in start order; with a cooperative launch every program runs at
    once. Without one, only the newest group can be incomplete, so nothing
    deadlocks while a group fits on the GPU, and the spin is bounded (a
    wrong row, never a hang). ROWS is unused. Grid: (chunks * programs,);
    one partial dw/db row per group (DW_PART etc. [programs, N])."""
    chunks, chunk, pid, cols, cmask = _ticket_chunk(TICKET, N, BLOCK_N)
    mask = cmask[None, :]
    dw = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    dw1 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    db1 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    k = tl.arange(0, CHUNKS_P2)
    two = tl.arange(0, 2)
    slot = k[:, None] * 2 + two[None, :]
    smask = (k < chunks)[:, None] & (two < 2)[None, :]
    x_next = tl.load(X + row_start.to(tl.int64) * stride_x + cols[None, :],
                     mask=mask & AHEAD & (row_start < row_end), other=0.,
                     eviction_policy="evict_last")
    dy_next = tl.load(DY + row_start.to(tl.int64) * stride_dy + cols[None, :],
                      mask=mask & AHEAD & (row_start < row_end), other=0.,
                      eviction_policy="evict_last")
    for r in range(row_start, row_end + 1):
        live = r < row_end
        rows = r + tl.arange(0, 1)
        lmask = mask & live
        r64 = r.to(tl.int64)
        if AHEAD:
            x = x_next.to(tl.float32)
            dy = dy_next.to(tl.float32)
            amask = mask & (r + 1 < row_end)
            x_next = tl.load(X + (r64 + 1) * stride_x + cols[None, :],
                             mask=amask, other=0., eviction_policy="evict_last")
            dy_next = tl.load(DY + (r64 + 1) * stride_dy + cols[None, :],
                              mask=amask, other=0., eviction_policy="evict_last")
        else:
            x = tl.load(X + r64 * stride_x + cols[None, :], mask=lmask,
                        other=0., eviction_policy="evict_last").to(tl.float32)
            dy = tl.load(DY + r64 * stride_dy + cols[None, :], mask=lmask,
                         other=0., eviction_policy="evict_last").to(tl.float32)
        rstd = tl.load(RSTD + rows, mask=rows < row_end, other=0.)
        if IS_RMS:
            mean = tl.zeros([1], dtype=tl.float32)
        else:
            mean = tl.load(MEAN + rows, mask=rows < row_end, other=0.)
        xhat = tl.where(lmask, (x - mean[:, None]) * rstd[:, None], 0.)
        w = tl.load(W + cols, mask=cmask, other=0.,
                    eviction_policy="evict_last").to(tl.float32)
        g = dy * w[None, :]
        dw += dy * xhat
        if HAS_BIAS:
            db += dy
        if HAS_W1:
            dy1 = tl.load(DY1 + r64 * stride_dy + cols[None, :], mask=lmask,
                          other=0., eviction_policy="evict_last").to(tl.float32)
            w1 = tl.load(W1 + cols, mask=cmask, other=0.,
                         eviction_policy="evict_last").to(tl.float32)
            g += dy1 * w1[None, :]
            dw1 += dy1 * xhat
            if HAS_B1:
                db1 += dy1
        sums = tl.where(two == 0, tl.sum(tl.sum(xhat * g, axis=1), axis=0),
                        tl.sum(tl.sum(g, axis=1), axis=0))
        bits = sums.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
        tl.atomic_xchg(STATS + (r64 * chunks + chunk) * 2 + two,
                       bits | (1 << 32), mask=(two < 2) & live)
        # Finish the previous row (its words were published an iteration ago).
        has_p = r > row_start
        p = tl.maximum(r - 1, row_start)
        p64 = p.to(tl.int64)
        words = _wait_row(STATS, p, chunks, slot, smask, has_p)
        c = tl.sum(_word_values(words, smask), axis=0) / N
        if tl.sum((c != c).to(tl.int32), axis=0) > 0:
            # A stale copy (or a genuine NaN): after the completed wait, a
            # new read sees every word.
            words = _row_words(STATS, p, chunks, slot, smask, has_p)
            c = tl.sum(_word_values(words, smask), axis=0) / N
        c1 = tl.sum(tl.where(two == 0, c, 0.), axis=0)
        c2 = tl.sum(tl.where(two == 1, c, 0.), axis=0)
        prow = p + tl.arange(0, 1)
        pmask = mask & has_p
        rstd_p = tl.load(RSTD + prow)
        if IS_RMS:
            mean_p = tl.zeros([1], dtype=tl.float32)
        else:
            mean_p = tl.load(MEAN + prow)
        x_p = tl.load(X + p64 * stride_x + cols[None, :], mask=pmask, other=0.,
                      eviction_policy="evict_first").to(tl.float32)
        dy_p = tl.load(DY + p64 * stride_dy + cols[None, :], mask=pmask,
                       other=0., eviction_policy="evict_first").to(tl.float32)
        xh_p = tl.where(pmask, (x_p - mean_p[:, None]) * rstd_p[:, None], 0.)
        w = tl.load(W + cols, mask=cmask, other=0.).to(tl.float32)
        g_p = dy_p * w[None, :]
        if HAS_W1:
            dy1 = tl.load(DY1 + p64 * stride_dy + cols[None, :], mask=pmask,
                          other=0., eviction_policy="evict_first").to(tl.float32)
            w1 = tl.load(W1 + cols, mask=cmask, other=0.).to(tl.float32)
            g_p += dy1 * w1[None, :]
        if IS_RMS:
            dx = (g_p - xh_p * c1) * rstd_p[:, None]
        else:
            dx = (g_p - (xh_p * c1 + c2)) * rstd_p[:, None]
        if HAS_DRES or STORE_DRES_IN or HAS_DROPOUT or HAS_ROWSCALE:
            dx = _dx_post(dx, prow, cols, pmask, DRES, DRES_IN, ROWSCALE,
                          stride_dres, stride_dres_in, M, N, dropout_p, seed,
                          HAS_DRES, STORE_DRES_IN, HAS_DROPOUT, HAS_ROWSCALE)
        tl.store(DX + p64 * stride_dx + cols[None, :], dx, mask=pmask,
                 eviction_policy="evict_first")
    part = pid.to(tl.int64) * N + cols
    tl.store(DW_PART + part, tl.sum(dw, axis=0), mask=cmask)
    if HAS_BIAS:
        tl.store(DB_PART + part, tl.sum(db, axis=0), mask=cmask)
    if HAS_W1:
        tl.store(DW1_PART + part, tl.sum(dw1, axis=0), mask=cmask)
        if HAS_B1:
            tl.store(DB1_PART + part, tl.sum(db1, axis=0), mask=cmask)


@triton.jit
def _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
              dropout_p, seed, HAS_RES: tl.constexpr, HAS_DROPOUT: tl.constexpr,
              HAS_ROWSCALE: tl.constexpr):
    # layer_norm_fast.py's: x' from x (row scale, dropout, residual).
    if HAS_ROWSCALE:
        scale = tl.load(ROWSCALE + rows, mask=rows < M, other=1.)
        x = x * scale.to(tl.float32)[:, None]
    if HAS_DROPOUT:
        keep = tl.rand(seed, rows[:, None] * N + cols[None, :]) > dropout_p
        x = tl.where(keep, x / (1.0 - dropout_p), 0.)
    if HAS_RES:
        r = tl.load(RES + rows.to(tl.int64)[:, None] * stride_res +
                    cols[None, :], mask=mask, other=0.)
        x = x + r.to(tl.float32)
    return x


@triton.jit
def _held(x, X, RES_OUT, PRE: tl.constexpr, STORE_RES_OUT: tl.constexpr):
    # A row's x' while it waits for its statistics: in residual_out's or x's
    # own dtype where that is exact (half the registers), else fp32.
    if STORE_RES_OUT:
        held = x.to(RES_OUT.dtype.element_ty)
    elif PRE:
        held = x
    else:
        held = x.to(X.dtype.element_ty)
    return held


@triton.jit
def _affine(xhat, W, B, cols, cmask, HAS_B: tl.constexpr):
    # xhat * w (+ b) for the chunk's columns; w and b stay in L2 (every row
    # reads them again).
    w = tl.load(W + cols, mask=cmask, other=0.,
                eviction_policy="evict_last").to(tl.float32)
    y = xhat * w[None, :]
    if HAS_B:
        b = tl.load(B + cols, mask=cmask, other=0.,
                    eviction_policy="evict_last").to(tl.float32)
        y += b[None, :]
    return y


@triton.jit
def _row_stats(words, smask, two, k, counts, chunks, N, IS_RMS: tl.constexpr):
    # The row's mean and variance from its chunks' (mean, M2) words (RMSNorm:
    # sums of squares), in chunk order (Chan's formula). NaN where a stale
    # copy of a word was used.
    got = _word_values(words, smask)
    firsts = tl.sum(tl.where(two[None, :] == 0, got, 0.), axis=1)
    if IS_RMS:
        mean = tl.sum(firsts * 0., axis=0)
        var = tl.sum(firsts, axis=0) / N
    else:
        seconds = tl.sum(tl.where(two[None, :] == 1, got, 0.), axis=1)
        mean = tl.sum(counts * firsts, axis=0) / N
        dm = tl.where(k < chunks, firsts - mean, 0.)
        var = (tl.sum(seconds, axis=0) +
               tl.sum(counts * dm * dm, axis=0)) / N
    return mean, var


@triton.jit
def _norm_fwd_coop(
    X, Y, W, B, RES, RES_OUT, ROWSCALE, W1, B1, Y1, MEAN, RSTD, STATS, TICKET,
    stride_x, stride_y, stride_res, stride_res_out,
    M, N, rows_per_program, eps, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
    STORE_RES_OUT: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
    CHUNKS_P2: tl.constexpr, AHEAD: tl.constexpr,
):
    """Rows of many tiles with x read once from DRAM, as _norm_bwd_coop: the
    chunks = cdiv(N, BLOCK_N) programs of a group own one column chunk each
    of the same contiguous row block. Per row each publishes its chunk's
    mean and M2 (LayerNorm; RMSNorm: the sum of squares) as two tagged
    64-bit words in STATS (int64 [M, chunks, 2], zeroed), then finishes the
    previous row, whose x' it still holds in registers: it waits for that
    row's words (read again if a stale copy shows, see _wait_row), combines
    them in chunk order (Chan's formula: deterministic) and writes y (and
    mean / rstd: chunk 0). AHEAD: the next row's x is loaded before this row
    is reduced. (group, chunk) come from TICKET (int32, zeroed) in start
    order; launched cooperatively, every program runs at once, and the wait
    is bounded (a wrong row, never a hang). ROWS is unused.
    Grid: (chunks * programs,)."""
    chunks, chunk, pid, cols, cmask = _ticket_chunk(TICKET, N, BLOCK_N)
    mask = cmask[None, :]
    count = tl.minimum(N - chunk * BLOCK_N, BLOCK_N).to(tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    k = tl.arange(0, CHUNKS_P2)
    two = tl.arange(0, 2)
    slot = k[:, None] * 2 + two[None, :]
    smask = (k < chunks)[:, None] & (two < 2)[None, :]
    counts = tl.where(k < chunks, tl.minimum(N - k * BLOCK_N, BLOCK_N), 0).to(
        tl.float32)
    x_next = tl.load(X + row_start.to(tl.int64) * stride_x + cols[None, :],
                     mask=mask & AHEAD & (row_start < row_end), other=0.,
                     eviction_policy="evict_first")
    x_prev = _held(tl.zeros([1, BLOCK_N], dtype=tl.float32), X, RES_OUT,
                   HAS_ROWSCALE or HAS_DROPOUT or HAS_RES, STORE_RES_OUT)
    for r in range(row_start, row_end + 1):
        live = r < row_end
        rows = r + tl.arange(0, 1)
        lmask = mask & live
        r64 = r.to(tl.int64)
        if AHEAD:
            x = x_next.to(tl.float32)
            x_next = tl.load(X + (r64 + 1) * stride_x + cols[None, :],
                             mask=mask & (r + 1 < row_end), other=0.,
                             eviction_policy="evict_first")
        else:
            x = tl.load(X + r64 * stride_x + cols[None, :], mask=lmask,
                        other=0., eviction_policy="evict_first").to(tl.float32)
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            x = _pre_norm(x, rows, cols, lmask, RES, ROWSCALE, stride_res, M,
                          N, dropout_p, seed, HAS_RES, HAS_DROPOUT,
                          HAS_ROWSCALE)
        if STORE_RES_OUT:
            tl.store(RES_OUT + r64 * stride_res_out + cols[None, :], x,
                     mask=lmask, eviction_policy="evict_first")
            x = x.to(RES_OUT.dtype.element_ty).to(tl.float32)
        if IS_RMS:
            first = tl.sum(tl.sum(x * x, axis=1), axis=0)
            second = first * 0.
        else:
            first = tl.sum(tl.sum(x, axis=1), axis=0) / count
            d = tl.where(lmask, x - first, 0.)
            second = tl.sum(tl.sum(d * d, axis=1), axis=0)
        sums = tl.where(two == 0, first, second)
        bits = sums.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
        tl.atomic_xchg(STATS + (r64 * chunks + chunk) * 2 + two,
                       bits | (1 << 32), mask=(two < 2) & live)
        # Finish the previous row (its words were published an iteration ago).
        has_p = r > row_start
        p = tl.maximum(r - 1, row_start)
        words = _wait_row(STATS, p, chunks, slot, smask, has_p)
        mean, var = _row_stats(words, smask, two, k, counts, chunks, N, IS_RMS)
        if (mean != mean) | (var != var):
            # A stale copy (or a genuine NaN): after the completed wait, a
            # new read sees every word.
            words = _row_words(STATS, p, chunks, slot, smask, has_p)
            mean, var = _row_stats(words, smask, two, k, counts, chunks, N,
                                   IS_RMS)
        rstd = 1 / tl.sqrt(var + eps)
        prow = p + tl.arange(0, 1)
        first_chunk = has_p & (chunk == 0)
        if not IS_RMS:
            tl.store(MEAN + prow, mean + tl.zeros([1], dtype=tl.float32),
                     mask=first_chunk)
        tl.store(RSTD + prow, rstd + tl.zeros([1], dtype=tl.float32),
                 mask=first_chunk)
        pmask = mask & has_p
        p64 = p.to(tl.int64)
        xhat = (x_prev.to(tl.float32) - mean) * rstd
        tl.store(Y + p64 * stride_y + cols[None, :],
                 _affine(xhat, W, B, cols, cmask, HAS_BIAS), mask=pmask,
                 eviction_policy="evict_first")
        if HAS_W1:
            tl.store(Y1 + p64 * stride_y + cols[None, :],
                     _affine(xhat, W1, B1, cols, cmask, HAS_B1), mask=pmask,
                     eviction_policy="evict_first")
        x_prev = _held(x, X, RES_OUT, HAS_ROWSCALE or HAS_DROPOUT or HAS_RES,
                       STORE_RES_OUT)
