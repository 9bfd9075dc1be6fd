"""Row-split LayerNorm forward (experimental; bench --tune and the device check only).

Several programs share one row, each holding its columns in registers, and
exchange per-split statistics through global atomics, so x is read once at
any N. Programs take their (row, split) from a ticket in start order, so
only the newest row can be incomplete (no deadlock while one row's programs
fit on the GPU), and every wait is bounded (a wrong row, never a hang).
Valid Triton; the host side is bench/layernorm_host.py (`split`). The
cooperative backward is examples/layernorm/layer_norm_coop.py.
"""
import triton
import triton.language as tl


@triton.jit
def _norm_fwd_split(
    X, Y, W, B, MEAN, RSTD, STATS, ARRIVED, TICKET,
    stride_x, stride_y, M, N, splits, eps,
    BLOCK_N: tl.constexpr, SPLITS_P2: tl.constexpr, IS_RMS: tl.constexpr,
    HAS_BIAS: tl.constexpr,
):
    """Experimental (bench --tune only; plain LayerNorm / RMSNorm): rows of
    many tiles read once. `splits` = cdiv(N, BLOCK_N) programs share a row,
    each holding its BLOCK_N columns in registers; they exchange per-split
    statistics (mean and M2, combined by Chan's formula in split order:
    deterministic) through STATS (fp32 [M, splits, 2]) and wait for each
    other on ARRIVED[row] (int32 [M], zeroed). Programs take their (row,
    split) from a ticket (TICKET: one int32, zeroed) in the order they
    start, so the programs a row waits for have all started or can start:
    no deadlock while `splits` programs fit on the GPU at once. Every
    exchange goes through atomics (L2), never a stale L1 line.
    Grid: (M * splits,)."""
    ticket = tl.atomic_add(TICKET, 1)
    row = ticket // splits
    s = ticket % splits
    cols = s * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    r64 = row.to(tl.int64)
    x = tl.load(X + r64 * stride_x + cols, mask=mask, other=0.).to(tl.float32)
    count = tl.minimum(N - s * BLOCK_N, BLOCK_N).to(tl.float32)
    if IS_RMS:
        first = tl.sum(x * x, axis=0)
        second = tl.sum(x * 0., axis=0)
    else:
        first = tl.sum(x, axis=0) / count
        d = tl.where(mask, x - first, 0.)
        second = tl.sum(d * d, axis=0)
    slot = STATS + (r64 * splits + s) * 2
    tl.atomic_xchg(slot, first)
    tl.atomic_xchg(slot + 1, second)
    tl.atomic_add(ARRIVED + row, 1)
    # Bounded: should the programs of a row ever not fit on the GPU together,
    # the row comes out wrong (the bench's check reports it), not a hang.
    tries = 0
    while (tl.atomic_add(ARRIVED + row, 0) < splits) & (tries < 4194304):
        tries += 1
    k = tl.arange(0, SPLITS_P2)
    kmask = k < splits
    base = STATS + r64 * splits * 2 + k * 2
    firsts = tl.where(kmask, tl.atomic_add(base, 0., mask=kmask), 0.)
    seconds = tl.where(kmask, tl.atomic_add(base + 1, 0., mask=kmask), 0.)
    counts = tl.where(kmask, tl.minimum(N - k * BLOCK_N, BLOCK_N).to(tl.float32),
                      0.)
    if IS_RMS:
        mean = 0.
        var = tl.sum(firsts, axis=0) / N
    else:
        mean = tl.sum(counts * firsts, axis=0) / N
        dm = firsts - mean
        var = (tl.sum(seconds, axis=0) + tl.sum(counts * dm * dm, axis=0)) / N
    rstd = 1 / tl.sqrt(var + eps)
    if s == 0:
        if not IS_RMS:
            tl.store(MEAN + row, mean)
        tl.store(RSTD + row, rstd)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    y = (x - mean) * rstd * w
    if HAS_BIAS:
        y += tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + r64 * stride_y + cols, y, mask=mask)
