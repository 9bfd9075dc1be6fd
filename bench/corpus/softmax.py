"""Row softmax: one row per program, persistent rows, and long rows in chunks.

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(X, Y, N, stride_x, stride_y, BLOCK: tl.constexpr):
    # The whole row in one tile (BLOCK >= N): max, exp, sum, divide.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    e = tl.exp(z)
    denom = tl.sum(e, axis=0)
    tl.store(Y + row * stride_y + cols, e / denom, mask=mask)


@triton.jit
def softmax_persistent_kernel(X, Y, n_rows, N, stride_x, stride_y, BLOCK: tl.constexpr):
    # A fixed number of programs walks the rows with a grid stride.
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        x = tl.load(X + row * stride_x + cols, mask=mask, other=-float("inf"))
        x = x.to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        y = e * (1.0 / tl.sum(e, axis=0))
        tl.store(Y + row * stride_y + cols, y, mask=mask)


@triton.jit
def softmax_online_kernel(X, Y, N, stride, BLOCK: tl.constexpr):
    # Rows longer than one tile: a first loop carries a running max and a
    # rescaled running sum per lane (loop-carried tiles), a second loop writes.
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        # Lanes that have seen only -inf keep a zero sum (avoid inf - inf).
        alpha = tl.where(m_new == -float("inf"), 0.0, tl.exp(m - m_new))
        p = tl.where(m_new == -float("inf"), 0.0, tl.exp(x - m_new))
        s = s * alpha + p
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(s * tl.exp(m - row_max), axis=0)
    inv = 1.0 / row_sum
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, tl.exp(x - row_max) * inv, mask=mask)
