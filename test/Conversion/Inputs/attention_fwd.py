# Test input (not a test: lit skips Inputs/ folders): a fused-attention forward with
# BLOCK_M query rows and 64-wide keys and head dimension, shared by
# test/Conversion/shared-memory-plan.py and
# test/Dialect/Tile/Transforms/pipeline-loops.py.
import triton
import triton.language as tl


@triton.jit
def attention(Q, K, V, O, N, BLOCK_M: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    dims = tl.arange(0, 64)
    cols = tl.arange(0, 64)
    q = tl.load(Q + rows[:, None] * 64 + dims[None, :])
    m = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    acc = tl.zeros((BLOCK_M, 64), dtype=tl.float32)
    for start in range(0, N, 64):
        keys = start + cols
        kt = tl.load(K + keys[None, :] * 64 + dims[:, None])
        qk = tl.dot(q, kt)
        m_new = tl.maximum(m, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        v = tl.load(V + keys[:, None] * 64 + dims[None, :])
        acc = acc * tl.math.exp2(m - m_new)[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new
    tl.store(O + rows[:, None] * 64 + dims[None, :], acc.to(tl.float16))
