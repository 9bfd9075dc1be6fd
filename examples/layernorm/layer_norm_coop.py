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
    row (the wait overlaps this row's loads and reductions): it adds the
    chunks' sums in chunk order (deterministic), reads that row's chunk
    again (L1/L2, as _norm_bwd_cols) and writes its dx. A sum goes out as
    one 64-bit word, (1 << 32) | its fp32 bits, in STATS (int64
    [M, chunks, 2], zeroed): written once and atomically, so a nonzero high
    half says it is there, and one volatile read of the row's words both
    waits and fetches. AHEAD: the next row's x and dy are loaded before this
    row is reduced. Programs take (group, chunk) from a ticket (TICKET:
    int32, zeroed) in start order; with a cooperative launch every program
    runs at once. Without one, only the newest group can be incomplete, so
    nothing deadlocks while a group fits on the GPU, and the spin is bounded
    (a wrong row, never a hang). ROWS is unused. Grid: (chunks * programs,);
    one partial dw/db row per group (DW_PART etc. [programs, N])."""
    chunks = tl.cdiv(N, BLOCK_N)
    ticket = tl.atomic_add(TICKET, 1)
    chunk = ticket % chunks
    pid = ticket // chunks
    cols = chunk * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
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
        has_p = r > row_start
        p = tl.maximum(r - 1, row_start)
        p64 = p.to(tl.int64)
        base = STATS + p64 * chunks * 2
        words = tl.load(base + slot, mask=smask & has_p, other=1 << 32,
                        volatile=True)
        tries = 0
        while (tl.min(tl.min(words >> 32, axis=1), axis=0) == 0) & \
                (tries < 4194304):
            words = tl.load(base + slot, mask=smask & has_p, other=1 << 32,
                            volatile=True)
            tries += 1
        got = tl.where(smask, (words & 0xFFFFFFFF).to(tl.int32).to(
            tl.float32, bitcast=True), 0.)
        c = tl.sum(got, axis=0) / N
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
