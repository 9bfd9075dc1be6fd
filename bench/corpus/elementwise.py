"""Elementwise kernels: unary, binary, row/column-vector broadcasting, int data.

Corpus kernels for bench/corpus_run.py (see bench/corpus/cases.py for shapes,
launch parameters and the PyTorch references). Valid Triton 3.6, and only the
subset Kiln compiles (docs/language.md).
"""
import triton
import triton.language as tl


@triton.jit
def silu_kernel(X, Y, n, BLOCK: tl.constexpr):
    # Unary: y = x * sigmoid(x), computed in fp32 whatever the storage type.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    y = x / (1.0 + tl.exp(-x))
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def axpby_kernel(X, Y, Z, n, alpha, beta, BLOCK: tl.constexpr):
    # Binary with two runtime float scalars: z = alpha * x + beta * y.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask).to(tl.float32)
    y = tl.load(Y + offs, mask=mask).to(tl.float32)
    tl.store(Z + offs, alpha * x + beta * y, mask=mask)


@triton.jit
def bias_relu_kernel(X, Bias, Y, M, N, stride_x, stride_y,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # 2-D tile plus a row vector broadcast over the rows: y = max(x + b, 0).
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    b = tl.load(Bias + cols, mask=cols < N, other=0.0)
    y = tl.maximum(x.to(tl.float32) + b.to(tl.float32)[None, :], 0.0)
    tl.store(Y + rows[:, None] * stride_y + cols[None, :], y, mask=mask)


@triton.jit
def col_scale_kernel(X, Scale, Y, M, N, stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A column vector broadcast over the columns: y[i, j] = x[i, j] * s[i].
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    s = tl.load(Scale + rows, mask=rows < M, other=0.0)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * stride + cols[None, :]
        x = tl.load(X + offs, mask=mask, other=0.0)
        tl.store(Y + offs, x * s[:, None], mask=mask)


@triton.jit
def dequant_int8_kernel(Q, Scale, Y, N, stride_q, stride_y, BLOCK: tl.constexpr):
    # int8 codes times a per-row fp32 scale, one row per program.
    row = tl.program_id(0)
    scale = tl.load(Scale + row)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        q = tl.load(Q + row * stride_q + cols, mask=mask, other=0)
        tl.store(Y + row * stride_y + cols, q.to(tl.float32) * scale, mask=mask)


@triton.jit
def int_mix_kernel(A, B, C, n, BLOCK: tl.constexpr):
    # int32 arithmetic and bit operations: shifts, masks, xor, C-style // and %.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=0)
    b = tl.load(B + offs, mask=mask, other=1)
    h = (a ^ (b << 3)) & 0xFFFF
    q = a // b
    r = a % b
    c = tl.where(a > b, h + q, (h >> 2) - r)
    tl.store(C + offs, c, mask=mask)


@triton.jit
def adam_step_kernel(P, G, M1, M2, n, lr, beta1, beta2, eps, step_size_1, step_size_2,
                     BLOCK: tl.constexpr):
    # Several fp32 state tensors updated in place: p, m, v (grad in the data dtype).
    # step_size_1 = 1 / (1 - beta1^t), step_size_2 = 1 / (1 - beta2^t).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(G + offs, mask=mask, other=0.0).to(tl.float32)
    p = tl.load(P + offs, mask=mask, other=0.0)
    m = tl.load(M1 + offs, mask=mask, other=0.0)
    v = tl.load(M2 + offs, mask=mask, other=0.0)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    denom = tl.sqrt(v * step_size_2) + eps
    p = p - lr * (m * step_size_1) / denom
    tl.store(P + offs, p, mask=mask)
    tl.store(M1 + offs, m, mask=mask)
    tl.store(M2 + offs, v, mask=mask)
