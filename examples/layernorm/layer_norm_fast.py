"""Fast LayerNorm / RMSNorm kernels in the Triton language (Kiln's best).

Plain Triton: import the file under Triton or compile it with Kiln. The host
side (kiln::rt::LayerNorm / RMSNorm, bench/layernorm_best.py) picks a variant
and its constexprs by shape; docs/layernorm.md explains the choices.

Forward, per row (all arithmetic in fp32):
    x' = x * rowscale                        (HAS_ROWSCALE)
    x' = dropout(x', p, seed)                (HAS_DROPOUT: keep when
                                              tl.rand(seed, row * N + col) > p,
                                              kept values scaled by 1/(1-p))
    x' = x' + residual                       (HAS_RES)
    residual_out = x'                        (STORE_RES_OUT; x' then takes
                                              the stored value, rounded to
                                              residual_out's dtype)
    xhat = (x' - mean) * rstd                (IS_RMS: xhat = x' * rstd with
                                              rstd = 1/sqrt(mean(x'^2) + eps))
    y  = xhat * w  + b                       (b only with HAS_BIAS)
    y1 = xhat * w1 + b1                      (HAS_W1; b1 only with HAS_B1)
mean (LayerNorm only) and rstd are stored as fp32 [M].

Backward, per row, from the pre-norm x' (residual_out when any of residual,
dropout or rowscale is on, else x itself):
    g  = dy * w (+ dy1 * w1)
    dx' = (g - (xhat * mean(g * xhat) + mean(g))) * rstd  (no mean(g) for RMS)
    dx' += dresidual                         (HAS_DRES: grad of residual_out)
    dres_in = dx'                            (STORE_DRES_IN: grad of residual)
    dx = dropout_mask * dx' / (1-p) * rowscale
dw = sum over rows of dy * xhat, db = sum of dy (dw1, db1 likewise from dy1).
No locks: each program owns a contiguous block of rows, keeps its dw/db
partial sums in fp32 registers and writes one partial row; _norm_bwd_reduce
sums the partial rows of every gradient in one launch, in a fixed order, so
dw/db are bitwise deterministic.
Rows too long for one tile use _norm_bwd_cols (a few tiles: per-row
statistics re-read from L2 by each column chunk's program) or
_norm_bwd_row_stats + _norm_bwd_chunked (any length).

Pointer parameters a switch turns off are never dereferenced (pass any
pointer, e.g. X). Strides are in elements; offsets are computed in 64 bits.
"""
import triton
import triton.language as tl


@triton.jit
def _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
              dropout_p, seed, HAS_RES: tl.constexpr, HAS_DROPOUT: tl.constexpr,
              HAS_ROWSCALE: tl.constexpr):
    # x: fp32 [ROWS, BLOCK_N] tile at rows[:, None], cols[None, :].
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
def _as_stored(x, RES_OUT):
    # x rounded as residual_out stores it. The forward normalises that value,
    # as `residual_out = x + residual; layer_norm(residual_out)` would, because
    # the backward reads residual_out back: both then see the same x'. (With
    # the unrounded x', a row of near-zero variance, e.g. N = 1, got
    # xhat = (round(x') - mean) * rstd ~ ulp * 1/sqrt(eps) in the backward
    # instead of 0.)
    return x.to(RES_OUT.dtype.element_ty).to(tl.float32)


@triton.jit
def _norm_fwd(
    X, Y, W, B, RES, RES_OUT, ROWSCALE, W1, B1, Y1, MEAN, RSTD,
    stride_x, stride_y, stride_res, stride_res_out,
    M, N, eps, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
    STORE_RES_OUT: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """One pass: ROWS whole rows (N <= BLOCK_N) per program, held in
    registers; x is read once. Grid: (cdiv(M, ROWS),)."""
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    cmask = cols < N
    mask = rmask[:, None] & cmask[None, :]
    r64 = rows.to(tl.int64)[:, None]
    x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask,
                other=0.).to(tl.float32)
    if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
        x = _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
                      dropout_p, seed, HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
    if STORE_RES_OUT:
        tl.store(RES_OUT + r64 * stride_res_out + cols[None, :], x, mask=mask)
        x = _as_stored(x, RES_OUT)
    if IS_RMS:
        xc = x
    else:
        mean = tl.sum(x, axis=1) / N
        tl.store(MEAN + rows, mean, mask=rmask)
        xc = tl.where(mask, x - mean[:, None], 0.)
    var = tl.sum(xc * xc, axis=1) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(RSTD + rows, rstd, mask=rmask)
    xhat = xc * rstd[:, None]
    w = tl.load(W + cols, mask=cmask).to(tl.float32)
    y = xhat * w[None, :]
    if HAS_BIAS:
        b = tl.load(B + cols, mask=cmask).to(tl.float32)
        y += b[None, :]
    tl.store(Y + r64 * stride_y + cols[None, :], y, mask=mask)
    if HAS_W1:
        w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
        y1 = xhat * w1[None, :]
        if HAS_B1:
            b1 = tl.load(B1 + cols, mask=cmask).to(tl.float32)
            y1 += b1[None, :]
        tl.store(Y1 + r64 * stride_y + cols[None, :], y1, mask=mask)


@triton.jit
def _norm_fwd_pipelined(
    X, Y, W, B, RES, RES_OUT, ROWSCALE, W1, B1, Y1, MEAN, RSTD,
    stride_x, stride_y, stride_res, stride_res_out,
    M, N, eps, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
    STORE_RES_OUT: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """_norm_fwd's tiles (ROWS whole rows, N <= BLOCK_N), persistent: program
    p handles tiles p, p + G, p + 2G, ... (G = the grid) and issues the loads
    of x for its next tile before it reduces the current one, so DRAM keeps
    streaming through the reductions and stores (with one 32-warp program per
    SM, _norm_fwd leaves DRAM idle while it reduces). w and b are re-read per
    tile (L1/L2) rather than held: registers are the limit.
    Grid: (min(cdiv(M, ROWS), k * SMs),)."""
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    G = tl.num_programs(0)
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    nxt = tl.load(X + rows.to(tl.int64)[:, None] * stride_x + cols[None, :],
                  mask=(rows < M)[:, None] & cmask[None, :], other=0.)
    for t in range(tl.program_id(0), tl.cdiv(M, ROWS), G):
        rows = t * ROWS + tl.arange(0, ROWS)
        rmask = rows < M
        mask = rmask[:, None] & cmask[None, :]
        r64 = rows.to(tl.int64)[:, None]
        x = nxt.to(tl.float32)
        after = rows + G * ROWS
        nxt = tl.load(X + after.to(tl.int64)[:, None] * stride_x +
                      cols[None, :], mask=(after < M)[:, None] & cmask[None, :],
                      other=0.)
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            x = _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
                          dropout_p, seed, HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
        if STORE_RES_OUT:
            tl.store(RES_OUT + r64 * stride_res_out + cols[None, :], x,
                     mask=mask)
            x = _as_stored(x, RES_OUT)
        if IS_RMS:
            xc = x
        else:
            mean = tl.sum(x, axis=1) / N
            tl.store(MEAN + rows, mean, mask=rmask)
            xc = tl.where(mask, x - mean[:, None], 0.)
        var = tl.sum(xc * xc, axis=1) / N
        rstd = 1 / tl.sqrt(var + eps)
        tl.store(RSTD + rows, rstd, mask=rmask)
        xhat = xc * rstd[:, None]
        w = tl.load(W + cols, mask=cmask).to(tl.float32)
        y = xhat * w[None, :]
        if HAS_BIAS:
            b = tl.load(B + cols, mask=cmask).to(tl.float32)
            y += b[None, :]
        tl.store(Y + r64 * stride_y + cols[None, :], y, mask=mask)
        if HAS_W1:
            w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
            y1 = xhat * w1[None, :]
            if HAS_B1:
                b1 = tl.load(B1 + cols, mask=cmask).to(tl.float32)
                y1 += b1[None, :]
            tl.store(Y1 + r64 * stride_y + cols[None, :], y1, mask=mask)


@triton.jit
def _norm_fwd_chunked(
    X, Y, W, B, RES, RES_OUT, ROWSCALE, W1, B1, Y1, MEAN, RSTD,
    stride_x, stride_y, stride_res, stride_res_out,
    M, N, eps, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
    STORE_RES_OUT: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """Rows of any length: one row per program in BLOCK_N chunks. Pass 1
    accumulates the shifted sums of x' and x'^2 (shift: the row's first
    value, so a large mean does not cancel the variance away); pass 2 walks
    the chunks backwards, so the chunks read last in pass 1 (still in L2)
    are read first again. Grid: (M,). ROWS is unused (always 1)."""
    row = tl.program_id(0)
    rows = row + tl.arange(0, 1)
    r64 = rows.to(tl.int64)[:, None]
    shift = 0.
    if not IS_RMS:
        first = tl.load(X + r64 * stride_x).to(tl.float32)
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            c0 = tl.arange(0, 1)
            first = _pre_norm(first, rows, c0, rows[:, None] < M, RES,
                              ROWSCALE, stride_res, M, N, dropout_p, seed,
                              HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
        shift = tl.sum(tl.sum(first, axis=1), axis=0)
    acc = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    acc2 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = (cols < N)[None, :]
        # Pass 2 reads the row again: keep it in L2 (evict_last), and let
        # pass 2's reads and y's stores go first (evict_first).
        x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask,
                    other=0., eviction_policy="evict_last").to(tl.float32)
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            x = _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
                          dropout_p, seed, HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
        if STORE_RES_OUT:
            tl.store(RES_OUT + r64 * stride_res_out + cols[None, :], x,
                     mask=mask, eviction_policy="evict_last")
            x = _as_stored(x, RES_OUT)
        d = tl.where(mask, x - shift, 0.)
        acc += d
        acc2 += d * d
    s1 = tl.sum(tl.sum(acc, axis=1), axis=0) / N
    s2 = tl.sum(tl.sum(acc2, axis=1), axis=0) / N
    if IS_RMS:
        mean = 0.
        var = s2
    else:
        mean = shift + s1
        var = tl.maximum(s2 - s1 * s1, 0.)
        tl.store(MEAN + row, mean)
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(RSTD + row, rstd)
    nchunks = tl.cdiv(N, BLOCK_N)
    for i in range(0, nchunks):
        cols = (nchunks - 1 - i) * BLOCK_N + tl.arange(0, BLOCK_N)
        cmask = cols < N
        mask = cmask[None, :]
        if STORE_RES_OUT:
            x = tl.load(RES_OUT + r64 * stride_res_out + cols[None, :],
                        mask=mask, other=0.,
                        eviction_policy="evict_first").to(tl.float32)
        else:
            x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask,
                        other=0., eviction_policy="evict_first").to(tl.float32)
            if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
                x = _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res,
                              M, N, dropout_p, seed, HAS_RES, HAS_DROPOUT,
                              HAS_ROWSCALE)
        xhat = (x - mean) * rstd
        w = tl.load(W + cols, mask=cmask).to(tl.float32)
        y = xhat * w[None, :]
        if HAS_BIAS:
            b = tl.load(B + cols, mask=cmask).to(tl.float32)
            y += b[None, :]
        tl.store(Y + r64 * stride_y + cols[None, :], y, mask=mask,
                 eviction_policy="evict_first")
        if HAS_W1:
            w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
            y1 = xhat * w1[None, :]
            if HAS_B1:
                b1 = tl.load(B1 + cols, mask=cmask).to(tl.float32)
                y1 += b1[None, :]
            tl.store(Y1 + r64 * stride_y + cols[None, :], y1, mask=mask,
                     eviction_policy="evict_first")


@triton.jit
def _norm_fwd_chunked_pipelined(
    X, Y, W, B, RES, RES_OUT, ROWSCALE, W1, B1, Y1, MEAN, RSTD,
    stride_x, stride_y, stride_res, stride_res_out,
    M, N, eps, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_RES: tl.constexpr,
    STORE_RES_OUT: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """_norm_fwd_chunked (same parameters and grid) with each pass loading
    its next chunk before it works on the current one: two chunks in flight
    per program, so fewer programs (less of L2 taken by rows between their
    two passes) keep DRAM as busy."""
    row = tl.program_id(0)
    rows = row + tl.arange(0, 1)
    r64 = rows.to(tl.int64)[:, None]
    span = tl.arange(0, BLOCK_N)
    shift = 0.
    if not IS_RMS:
        first = tl.load(X + r64 * stride_x).to(tl.float32)
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            c0 = tl.arange(0, 1)
            first = _pre_norm(first, rows, c0, rows[:, None] < M, RES,
                              ROWSCALE, stride_res, M, N, dropout_p, seed,
                              HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
        shift = tl.sum(tl.sum(first, axis=1), axis=0)
    acc = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    acc2 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    nxt = tl.load(X + r64 * stride_x + span[None, :],
                  mask=(span < N)[None, :], other=0.,
                  eviction_policy="evict_last")
    for off in range(0, N, BLOCK_N):
        cols = off + span
        mask = (cols < N)[None, :]
        x = nxt.to(tl.float32)
        ncols = cols + BLOCK_N
        nxt = tl.load(X + r64 * stride_x + ncols[None, :],
                      mask=(ncols < N)[None, :], other=0.,
                      eviction_policy="evict_last")
        if HAS_ROWSCALE or HAS_DROPOUT or HAS_RES:
            x = _pre_norm(x, rows, cols, mask, RES, ROWSCALE, stride_res, M, N,
                          dropout_p, seed, HAS_RES, HAS_DROPOUT, HAS_ROWSCALE)
        if STORE_RES_OUT:
            tl.store(RES_OUT + r64 * stride_res_out + cols[None, :], x,
                     mask=mask, eviction_policy="evict_last")
            x = _as_stored(x, RES_OUT)
        d = tl.where(mask, x - shift, 0.)
        acc += d
        acc2 += d * d
    s1 = tl.sum(tl.sum(acc, axis=1), axis=0) / N
    s2 = tl.sum(tl.sum(acc2, axis=1), axis=0) / N
    if IS_RMS:
        mean = 0.
        var = s2
    else:
        mean = shift + s1
        var = tl.maximum(s2 - s1 * s1, 0.)
        tl.store(MEAN + row, mean)
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(RSTD + row, rstd)
    # Pass 2 walks the chunks backwards (the last ones read are still in L2).
    # Pre-norm options read residual_out back (written in pass 1).
    if STORE_RES_OUT:
        SRC = RES_OUT
        src_stride = stride_res_out
    else:
        SRC = X
        src_stride = stride_x
    last = (tl.cdiv(N, BLOCK_N) - 1) * BLOCK_N
    nxt = tl.load(SRC + r64 * src_stride + (last + span)[None, :],
                  mask=((last + span) < N)[None, :], other=0.,
                  eviction_policy="evict_first")
    for i in range(0, tl.cdiv(N, BLOCK_N)):
        cols = last - i * BLOCK_N + span
        cmask = cols < N
        mask = cmask[None, :]
        x = nxt.to(tl.float32)
        pcols = cols - BLOCK_N
        nxt = tl.load(SRC + r64 * src_stride + pcols[None, :],
                      mask=(pcols >= 0)[None, :], other=0.,
                      eviction_policy="evict_first")
        xhat = (x - mean) * rstd
        w = tl.load(W + cols, mask=cmask).to(tl.float32)
        y = xhat * w[None, :]
        if HAS_BIAS:
            b = tl.load(B + cols, mask=cmask).to(tl.float32)
            y += b[None, :]
        tl.store(Y + r64 * stride_y + cols[None, :], y, mask=mask,
                 eviction_policy="evict_first")
        if HAS_W1:
            w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
            y1 = xhat * w1[None, :]
            if HAS_B1:
                b1 = tl.load(B1 + cols, mask=cmask).to(tl.float32)
                y1 += b1[None, :]
            tl.store(Y1 + r64 * stride_y + cols[None, :], y1, mask=mask,
                     eviction_policy="evict_first")


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
def _norm_bwd(
    X, W, B, DY, DX, W1, DY1, DRES, DRES_IN, ROWSCALE, MEAN, RSTD,
    DW_PART, DB_PART, DW1_PART, DB1_PART,
    stride_x, stride_dy, stride_dx, stride_dres, stride_dres_in,
    M, N, rows_per_program, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_DRES: tl.constexpr,
    STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """dx for rows [pid * rows_per_program, +rows_per_program) (whole rows,
    N <= BLOCK_N, ROWS at a time), and this block's partial sums of dw, db
    (dw1, db1) as one fp32 row of DW_PART etc. ([programs, N], row stride
    N). rows_per_program is a multiple of ROWS. Grid: (programs,). B is
    unused (the signature mirrors the forward's)."""
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(W + cols, mask=cmask).to(tl.float32)
    if HAS_W1:
        w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
    dw = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    dw1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for r0 in range(row_start, row_end, ROWS):
        rows = r0 + tl.arange(0, ROWS)
        rmask = rows < row_end
        mask = rmask[:, None] & cmask[None, :]
        r64 = rows.to(tl.int64)[:, None]
        x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask,
                    other=0.).to(tl.float32)
        dy = tl.load(DY + r64 * stride_dy + cols[None, :], mask=mask,
                     other=0.).to(tl.float32)
        rstd = tl.load(RSTD + rows, mask=rmask, other=0.)
        if IS_RMS:
            xhat = x * rstd[:, None]
        else:
            mean = tl.load(MEAN + rows, mask=rmask, other=0.)
            xhat = tl.where(mask, (x - mean[:, None]) * rstd[:, None], 0.)
        g = dy * w[None, :]
        dw += dy * xhat
        if HAS_BIAS:
            db += dy
        if HAS_W1:
            dy1 = tl.load(DY1 + r64 * stride_dy + cols[None, :], mask=mask,
                          other=0.).to(tl.float32)
            g += dy1 * w1[None, :]
            dw1 += dy1 * xhat
            if HAS_B1:
                db1 += dy1
        c1 = tl.sum(xhat * g, axis=1) / N
        if IS_RMS:
            dx = (g - xhat * c1[:, None]) * rstd[:, None]
        else:
            c2 = tl.sum(g, axis=1) / N
            dx = (g - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
        if HAS_DRES or STORE_DRES_IN or HAS_DROPOUT or HAS_ROWSCALE:
            dx = _dx_post(dx, rows, cols, mask, DRES, DRES_IN, ROWSCALE,
                          stride_dres, stride_dres_in, M, N, dropout_p, seed, HAS_DRES,
                          STORE_DRES_IN, HAS_DROPOUT, HAS_ROWSCALE)
        tl.store(DX + r64 * stride_dx + cols[None, :], dx, mask=mask)
    part = pid * N + cols
    tl.store(DW_PART + part, tl.sum(dw, axis=0), mask=cmask)
    if HAS_BIAS:
        tl.store(DB_PART + part, tl.sum(db, axis=0), mask=cmask)
    if HAS_W1:
        tl.store(DW1_PART + part, tl.sum(dw1, axis=0), mask=cmask)
        if HAS_B1:
            tl.store(DB1_PART + part, tl.sum(db1, axis=0), mask=cmask)


@triton.jit
def _norm_bwd_pipelined(
    X, W, B, DY, DX, W1, DY1, DRES, DRES_IN, ROWSCALE, MEAN, RSTD,
    DW_PART, DB_PART, DW1_PART, DB1_PART,
    stride_x, stride_dy, stride_dx, stride_dres, stride_dres_in,
    M, N, rows_per_program, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_DRES: tl.constexpr,
    STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """_norm_bwd (same parameters, grid and partial rows), with x and dy of
    the next ROWS rows loaded before the current rows' reductions: two tiles
    of each in flight per program, so DRAM keeps streaming while the program
    reduces and stores. w is re-read per tile (L1) instead of held."""
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    dw = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    dw1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    rows = row_start + tl.arange(0, ROWS)
    first = (rows < row_end)[:, None] & cmask[None, :]
    x_next = tl.load(X + rows.to(tl.int64)[:, None] * stride_x + cols[None, :],
                     mask=first, other=0.)
    dy_next = tl.load(DY + rows.to(tl.int64)[:, None] * stride_dy +
                      cols[None, :], mask=first, other=0.)
    for r0 in range(row_start, row_end, ROWS):
        rows = r0 + tl.arange(0, ROWS)
        rmask = rows < row_end
        mask = rmask[:, None] & cmask[None, :]
        r64 = rows.to(tl.int64)[:, None]
        x = x_next.to(tl.float32)
        dy = dy_next.to(tl.float32)
        after = rows + ROWS
        amask = (after < row_end)[:, None] & cmask[None, :]
        a64 = after.to(tl.int64)[:, None]
        x_next = tl.load(X + a64 * stride_x + cols[None, :], mask=amask,
                         other=0.)
        dy_next = tl.load(DY + a64 * stride_dy + cols[None, :], mask=amask,
                          other=0.)
        rstd = tl.load(RSTD + rows, mask=rmask, other=0.)
        if IS_RMS:
            xhat = x * rstd[:, None]
        else:
            mean = tl.load(MEAN + rows, mask=rmask, other=0.)
            xhat = tl.where(mask, (x - mean[:, None]) * rstd[:, None], 0.)
        w = tl.load(W + cols, mask=cmask).to(tl.float32)
        g = dy * w[None, :]
        dw += dy * xhat
        if HAS_BIAS:
            db += dy
        if HAS_W1:
            dy1 = tl.load(DY1 + r64 * stride_dy + cols[None, :], mask=mask,
                          other=0.).to(tl.float32)
            w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
            g += dy1 * w1[None, :]
            dw1 += dy1 * xhat
            if HAS_B1:
                db1 += dy1
        c1 = tl.sum(xhat * g, axis=1) / N
        if IS_RMS:
            dx = (g - xhat * c1[:, None]) * rstd[:, None]
        else:
            c2 = tl.sum(g, axis=1) / N
            dx = (g - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
        if HAS_DRES or STORE_DRES_IN or HAS_DROPOUT or HAS_ROWSCALE:
            dx = _dx_post(dx, rows, cols, mask, DRES, DRES_IN, ROWSCALE,
                          stride_dres, stride_dres_in, M, N, dropout_p, seed,
                          HAS_DRES, STORE_DRES_IN, HAS_DROPOUT, HAS_ROWSCALE)
        tl.store(DX + r64 * stride_dx + cols[None, :], dx, mask=mask)
    part = pid.to(tl.int64) * N + cols
    tl.store(DW_PART + part, tl.sum(dw, axis=0), mask=cmask)
    if HAS_BIAS:
        tl.store(DB_PART + part, tl.sum(db, axis=0), mask=cmask)
    if HAS_W1:
        tl.store(DW1_PART + part, tl.sum(dw1, axis=0), mask=cmask)
        if HAS_B1:
            tl.store(DB1_PART + part, tl.sum(db1, axis=0), mask=cmask)


@triton.jit
def _norm_bwd_cols(
    X, W, B, DY, DX, W1, DY1, DRES, DRES_IN, ROWSCALE, MEAN, RSTD,
    DW_PART, DB_PART, DW1_PART, DB1_PART,
    stride_x, stride_dy, stride_dx, stride_dres, stride_dres_in,
    M, N, rows_per_program, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_DRES: tl.constexpr,
    STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """Rows whose x, dy, w and dw/db accumulators do not fit in registers
    together: program (c, p) owns columns [c * BLOCK_N, +BLOCK_N) of rows
    [p * rows_per_program, ...). Per row it walks the whole row for the
    statistics (the programs of the other column chunks read the same row
    at the same time, so DRAM serves it once and L2 the rest), adding its own
    chunk's dw/db on the way; after the row's reductions it reads its chunk
    again (just read: L1 or L2) for dx instead of holding it across them.
    With one chunk (BLOCK_N >= N) that is a whole-row backward. The same
    parameters as _norm_bwd (ROWS is unused: one row at a time). Grid:
    (cdiv(N, BLOCK_N), programs)."""
    chunk = tl.program_id(0)
    pid = tl.program_id(1)
    span = tl.arange(0, BLOCK_N)
    cols = chunk * BLOCK_N + span
    cmask = cols < N
    mask = cmask[None, :]
    dw = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    dw1 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    db1 = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for r in range(row_start, row_end):
        rows = r + tl.arange(0, 1)
        r64 = rows.to(tl.int64)[:, None]
        rstd = tl.load(RSTD + rows)
        if IS_RMS:
            mean = tl.zeros([1], dtype=tl.float32)
        else:
            mean = tl.load(MEAN + rows)
        # The sums are reduced per chunk: whole-chunk accumulators would not
        # fit beside dw/db when one chunk is the whole row.
        acc1 = tl.zeros([1], dtype=tl.float32)
        acc2 = tl.zeros([1], dtype=tl.float32)
        for off in range(0, N, BLOCK_N):
            sc = off + span
            sm = (sc < N)[None, :]
            # Read again below and by the other chunks' programs: keep it.
            xs = tl.load(X + r64 * stride_x + sc[None, :], mask=sm, other=0.,
                         eviction_policy="evict_last").to(tl.float32)
            dys = tl.load(DY + r64 * stride_dy + sc[None, :], mask=sm,
                          other=0., eviction_policy="evict_last").to(tl.float32)
            ws = tl.load(W + sc, mask=sc < N, other=0.,
                         eviction_policy="evict_last").to(tl.float32)
            gs = dys * ws[None, :]
            if HAS_W1:
                dy1s = tl.load(DY1 + r64 * stride_dy + sc[None, :], mask=sm,
                               other=0.,
                               eviction_policy="evict_last").to(tl.float32)
                w1s = tl.load(W1 + sc, mask=sc < N, other=0.,
                              eviction_policy="evict_last").to(tl.float32)
                gs += dy1s * w1s[None, :]
            xh = tl.where(sm, (xs - mean[:, None]) * rstd[:, None], 0.)
            acc1 += tl.sum(xh * gs, axis=1)
            acc2 += tl.sum(gs, axis=1)
            if off == chunk * BLOCK_N:
                dw += dys * xh
                if HAS_BIAS:
                    db += dys
                if HAS_W1:
                    dw1 += dy1s * xh
                    if HAS_B1:
                        db1 += dy1s
        c1 = acc1 / N
        c2 = acc2 / N
        # The chunk again, for dx (a different access from the walk's, so
        # never merged with it): not needed after this.
        x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask, other=0.,
                    eviction_policy="evict_first").to(tl.float32)
        dy = tl.load(DY + r64 * stride_dy + cols[None, :], mask=mask,
                     other=0., eviction_policy="evict_first").to(tl.float32)
        xhat = tl.where(mask, (x - mean[:, None]) * rstd[:, None], 0.)
        w = tl.load(W + cols, mask=cmask, other=0.).to(tl.float32)
        g = dy * w[None, :]
        if HAS_W1:
            dy1 = tl.load(DY1 + r64 * stride_dy + cols[None, :], mask=mask,
                          other=0., eviction_policy="evict_first").to(tl.float32)
            w1 = tl.load(W1 + cols, mask=cmask, other=0.).to(tl.float32)
            g += dy1 * w1[None, :]
        if IS_RMS:
            dx = (g - xhat * c1[:, None]) * rstd[:, None]
        else:
            dx = (g - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
        if HAS_DRES or STORE_DRES_IN or HAS_DROPOUT or HAS_ROWSCALE:
            dx = _dx_post(dx, rows, cols, mask, DRES, DRES_IN, ROWSCALE,
                          stride_dres, stride_dres_in, M, N, dropout_p, seed,
                          HAS_DRES, STORE_DRES_IN, HAS_DROPOUT, HAS_ROWSCALE)
        tl.store(DX + r64 * stride_dx + cols[None, :], dx, mask=mask,
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
def _norm_bwd_row_stats(
    X, W, DY, W1, DY1, MEAN, RSTD, C1, C2,
    stride_x, stride_dy, M, N,
    BLOCK_N: tl.constexpr, IS_RMS: tl.constexpr, HAS_W1: tl.constexpr,
):
    """Rows longer than one tile, step 1: per row c1 = mean(g * xhat) and
    c2 = mean(g) (fp32 [M] each) in BLOCK_N chunks. Grid: (M,)."""
    row = tl.program_id(0)
    x_row = X + row.to(tl.int64) * stride_x
    dy_row = DY + row.to(tl.int64) * stride_dy
    rstd = tl.load(RSTD + row)
    mean = 0.
    if not IS_RMS:
        mean = tl.load(MEAN + row)
    acc1 = tl.zeros([BLOCK_N], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.).to(tl.float32)
        dy = tl.load(dy_row + cols, mask=mask, other=0.).to(tl.float32)
        w = tl.load(W + cols, mask=mask, other=0.).to(tl.float32)
        g = dy * w
        if HAS_W1:
            dy1 = tl.load(DY1 + row.to(tl.int64) * stride_dy + cols,
                          mask=mask, other=0.).to(tl.float32)
            w1 = tl.load(W1 + cols, mask=mask, other=0.).to(tl.float32)
            g += dy1 * w1
        xhat = tl.where(mask, (x - mean) * rstd, 0.)
        acc1 += xhat * g
        acc2 += g
    tl.store(C1 + row, tl.sum(acc1, axis=0) / N)
    tl.store(C2 + row, tl.sum(acc2, axis=0) / N)


@triton.jit
def _norm_bwd_chunked(
    X, W, B, DY, DX, W1, DY1, DRES, DRES_IN, ROWSCALE, MEAN, RSTD, C1, C2,
    DW_PART, DB_PART, DW1_PART, DB1_PART,
    stride_x, stride_dy, stride_dx, stride_dres, stride_dres_in,
    M, N, rows_per_program, dropout_p, seed,
    BLOCK_N: tl.constexpr, ROWS: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr, HAS_DRES: tl.constexpr,
    STORE_DRES_IN: tl.constexpr, HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr, HAS_W1: tl.constexpr, HAS_B1: tl.constexpr,
):
    """Rows longer than one tile, step 2: program (p, c) computes dx for
    columns [c * BLOCK_N, +BLOCK_N) of rows [p * rows_per_program, ...)
    from the row statistics of _norm_bwd_row_stats, and the partial dw/db
    of that block and column chunk (row p of DW_PART etc.).
    Grid: (programs, cdiv(N, BLOCK_N))."""
    pid = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(W + cols, mask=cmask).to(tl.float32)
    if HAS_W1:
        w1 = tl.load(W1 + cols, mask=cmask).to(tl.float32)
    dw = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    dw1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    db1 = tl.zeros([ROWS, BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for r0 in range(row_start, row_end, ROWS):
        rows = r0 + tl.arange(0, ROWS)
        rmask = rows < row_end
        mask = rmask[:, None] & cmask[None, :]
        r64 = rows.to(tl.int64)[:, None]
        x = tl.load(X + r64 * stride_x + cols[None, :], mask=mask,
                    other=0.).to(tl.float32)
        dy = tl.load(DY + r64 * stride_dy + cols[None, :], mask=mask,
                     other=0.).to(tl.float32)
        rstd = tl.load(RSTD + rows, mask=rmask, other=0.)
        c1 = tl.load(C1 + rows, mask=rmask, other=0.)
        if IS_RMS:
            xhat = x * rstd[:, None]
        else:
            mean = tl.load(MEAN + rows, mask=rmask, other=0.)
            xhat = tl.where(mask, (x - mean[:, None]) * rstd[:, None], 0.)
        g = dy * w[None, :]
        dw += dy * xhat
        if HAS_BIAS:
            db += dy
        if HAS_W1:
            dy1 = tl.load(DY1 + r64 * stride_dy + cols[None, :], mask=mask,
                          other=0.).to(tl.float32)
            g += dy1 * w1[None, :]
            dw1 += dy1 * xhat
            if HAS_B1:
                db1 += dy1
        if IS_RMS:
            dx = (g - xhat * c1[:, None]) * rstd[:, None]
        else:
            c2 = tl.load(C2 + rows, mask=rmask, other=0.)
            dx = (g - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
        if HAS_DRES or STORE_DRES_IN or HAS_DROPOUT or HAS_ROWSCALE:
            dx = _dx_post(dx, rows, cols, mask, DRES, DRES_IN, ROWSCALE,
                          stride_dres, stride_dres_in, M, N, dropout_p, seed, HAS_DRES,
                          STORE_DRES_IN, HAS_DROPOUT, HAS_ROWSCALE)
        tl.store(DX + r64 * stride_dx + cols[None, :], dx, mask=mask)
    part = pid.to(tl.int64) * N + cols
    tl.store(DW_PART + part, tl.sum(dw, axis=0), mask=cmask)
    if HAS_BIAS:
        tl.store(DB_PART + part, tl.sum(db, axis=0), mask=cmask)
    if HAS_W1:
        tl.store(DW1_PART + part, tl.sum(dw1, axis=0), mask=cmask)
        if HAS_B1:
            tl.store(DB1_PART + part, tl.sum(db1, axis=0), mask=cmask)


@triton.jit
def _norm_bwd_reduce(
    PART, OUT0, OUT1, OUT2, OUT3, P, N, PART_STRIDE,
    BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr,
):
    """OUTg[n] = sum over p of PART[g * PART_STRIDE + p * N + n], g =
    program_id(1): every gradient's fp32 [P, N] partial rows (dw, db, dw1,
    db1, those on) in one launch, summed in a fixed order (deterministic).
    OUTg past the grid are never dereferenced. Grid: (cdiv(N, BLOCK_N), G)."""
    g = tl.program_id(1)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    part = PART + g.to(tl.int64) * PART_STRIDE
    acc = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        ps = p0 + tl.arange(0, BLOCK_P)
        mask = (ps < P)[:, None] & cmask[None, :]
        acc += tl.load(part + ps.to(tl.int64)[:, None] * N + cols[None, :],
                       mask=mask, other=0.)
    total = tl.sum(acc, axis=0)
    tl.store(OUT0 + cols, total, mask=cmask & (g == 0))
    tl.store(OUT1 + cols, total, mask=cmask & (g == 1))
    tl.store(OUT2 + cols, total, mask=cmask & (g == 2))
    tl.store(OUT3 + cols, total, mask=cmask & (g == 3))
