"""Addressing kernels: a 3-D grid transpose, persistent strided row copies,
rotary position embedding and per-row int8 quantization.

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def batched_transpose_kernel(X, Y, M, N, stride_xb, stride_xm, stride_yb, stride_ym,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # y[b, n, m] = x[b, m, n]: tiles on axes 0 and 1, the batch on axis 2.
    # The transpose is pure addressing: the tile is stored with swapped strides.
    b = tl.program_id(2)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + b * stride_xb + rows[:, None] * stride_xm + cols[None, :], mask=mask)
    tl.store(Y + b * stride_yb + cols[None, :] * stride_ym + rows[:, None], x, mask=mask)


@triton.jit
def row_copy_persistent_kernel(X, Y, M, N, stride_x, stride_y, BLOCK: tl.constexpr):
    # Grid-stride loop over rows addressed as r * stride (strides of padded
    # rows, divisible by 16 in some cases and not in others).
    for r in range(tl.program_id(0), M, tl.num_programs(0)):
        for start in range(0, N, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < N
            v = tl.load(X + r * stride_x + cols, mask=mask)
            tl.store(Y + r * stride_y + cols, v, mask=mask)


@triton.jit
def cast_scale_kernel(X, Y, n, scale, BLOCK: tl.constexpr):
    # Conversion between storage types (fp32 in, the case's dtype out) with
    # a scale: y = (x * scale).to(Y's type).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, (x * scale).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rope_kernel(X, Cos, Sin, Y, seq_len, stride_xt, stride_xh, stride_c,
                HALF: tl.constexpr):
    # Rotary embedding of one (token, head) row of width 2 * HALF: the two
    # halves are loaded separately and rotated by the token's angles.
    # Grid: (tokens, heads); token t uses position t % seq_len.
    t = tl.program_id(0)
    h = tl.program_id(1)
    pos = t % seq_len
    d = tl.arange(0, HALF)
    base = X + t * stride_xt + h * stride_xh
    x1 = tl.load(base + d).to(tl.float32)
    x2 = tl.load(base + HALF + d).to(tl.float32)
    c = tl.load(Cos + pos * stride_c + d)
    s = tl.load(Sin + pos * stride_c + d)
    out = Y + t * stride_xt + h * stride_xh
    tl.store(out + d, x1 * c - x2 * s)
    tl.store(out + HALF + d, x2 * c + x1 * s)


@triton.jit
def quantize_rows_int8_kernel(X, Q, Scale, N, stride_x, stride_q, BLOCK: tl.constexpr):
    # Symmetric per-row int8 quantization: scale = max|x| / 127,
    # q = trunc(x / scale + 0.5 * sign(x)) (round half away from zero).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-8)
    scale = amax / 127.0
    y = x * (127.0 / amax)
    y = tl.where(y >= 0, y + 0.5, y - 0.5)
    tl.store(Q + row * stride_q + cols, y.to(tl.int8), mask=mask)
    tl.store(Scale + row, scale)
