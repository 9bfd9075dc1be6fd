"""RMSNorm and LayerNorm, forward and backward, written for this corpus
(one tile per row; the backward accumulates the weight gradients of many
rows in registers with a persistent loop and adds them atomically).

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd_kernel(X, W, Y, Rstd, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    # y = x * rsqrt(mean(x^2) + eps) * w, one row per program (BLOCK >= N).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(Y + row * stride_y + cols, x * rstd * w, mask=mask)
    tl.store(Rstd + row, rstd)


@triton.jit
def rmsnorm_bwd_kernel(DY, X, W, Rstd, DX, DW, M, N, stride, BLOCK: tl.constexpr):
    # dx = rstd * (dy*w - xhat * mean(dy*w*xhat)), xhat = x * rstd;
    # dw = sum over rows of dy * xhat: an fp32 tile per program, added to
    # DW (fp32, zeroed) once at the end.
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    for row in range(tl.program_id(0), M, tl.num_programs(0)):
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(Rstd + row)
        xhat = x * rstd
        wdy = dy * w
        c = tl.sum(wdy * xhat, axis=0) / N
        tl.store(DX + row * stride + cols, (wdy - xhat * c) * rstd, mask=mask)
        dw += dy * xhat
    tl.atomic_add(DW + cols, dw, mask=mask)


@triton.jit
def layernorm_fwd_kernel(X, W, B, Y, Mean, Rstd, N, stride, eps, BLOCK: tl.constexpr):
    # y = (x - mean) * rstd * w + b with the row in one tile (BLOCK >= N).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * stride + cols, d * rstd * w + b, mask=mask)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


@triton.jit
def layernorm_bwd_kernel(DY, X, W, Mean, Rstd, DX, DW, DB, M, N, stride,
                         BLOCK: tl.constexpr):
    # dx = rstd * (wdy - (xhat * mean(wdy * xhat) + mean(wdy))); dw and db
    # accumulate over a grid-stride walk of the rows in two fp32 tiles.
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    row = tl.program_id(0)
    while row < M:
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = dy * w
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)
        dw += dy * xhat
        db += dy
        row += tl.num_programs(0)
    tl.atomic_add(DW + cols, dw, mask=mask)
    tl.atomic_add(DB + cols, db, mask=mask)
