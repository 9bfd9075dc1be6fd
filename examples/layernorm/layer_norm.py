"""Layer normalization kernels in the Triton language.

The three kernels of Triton's "Layer Normalization" tutorial: a fused forward
pass, the backward pass for the input (which also accumulates per-group partial
sums of dW and dB under a spin lock) and the final reduction of those partial
sums. The file is plain Triton: `import` it under Triton and launch the kernels
as usual, or compile it with Kiln (`ln-compile layer_norm.py --kernel ...`).

Math: y = (x - mean) * rstd * w + b with rstd = 1 / sqrt(var + eps).
All accumulation happens in fp32 whatever the input dtype.
"""
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_fused(
    X,  # input, one row per program: [M, N] with row stride `stride`
    Y,  # output, same layout as X
    W,  # weight [N]
    B,  # bias [N]
    Mean,  # fp32 [M]: row means, saved for the backward pass
    Rstd,  # fp32 [M]: reciprocal standard deviations
    stride,  # elements between the starts of consecutive rows
    N,  # row length
    eps,  # added to the variance before the square root
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride

    # First pass: the mean, accumulated chunk by chunk in an fp32 tile.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        acc += x
    mean = tl.sum(acc, axis=0) / N

    # Second pass: the biased variance. Lanes past the end of the row must
    # not contribute (x - mean) ** 2, so they are zeroed explicitly.
    acc_var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.)
        acc_var += d * d
    var = tl.sum(acc_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    # Third pass: normalize, scale and shift.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _layer_norm_bwd_dx_fused(
    DX,  # gradient of the input [M, N]
    DY,  # gradient of the output [M, N]
    DW,  # partial sums of the weight gradient [GROUP_SIZE_M, N]
    DB,  # partial sums of the bias gradient [GROUP_SIZE_M, N]
    X,  # input [M, N]
    W,  # weight [N]
    Mean,  # fp32 [M]
    Rstd,  # fp32 [M]
    Lock,  # int32 [2 * GROUP_SIZE_M]: spin locks, then "written" flags
    stride,  # row stride of X, DY and DX
    N,  # row length
    GROUP_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride

    # Rows share GROUP_SIZE_M partial-sum buffers; each buffer row has a lock
    # and a flag saying whether it already holds data.
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols

    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)

    # dx = (wdy - (xhat * c1 + c2)) * rstd, with masked lanes zeroed so that
    # they do not disturb the row sums.
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)

    # Add this row's contribution to its group's partial dW and dB.
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        # First writer: the buffer holds stale data, overwrite it.
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    # Every thread's store must land before the lock is released.
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(
    DW,  # partial sums of the weight gradient [M, N]
    DB,  # partial sums of the bias gradient [M, N]
    FINAL_DW,  # weight gradient [N]
    FINAL_DB,  # bias gradient [N]
    M,  # number of partial-sum rows
    N,  # row length
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
):
    # Each program reduces BLOCK_SIZE_N columns over all M rows.
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)
