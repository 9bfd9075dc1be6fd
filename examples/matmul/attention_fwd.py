"""Fused attention forward, Out = softmax(Q K^T * sm_scale (+ causal mask)) V, in the
shape of Triton's fused-attention tutorial (06): one program per BLOCK_M query rows of one
(batch, head), an online softmax over BLOCK_N key blocks kept in registers (running row
maximum m_i and sum l_i, exp2 with log2(e) folded into the scale), two tl.dot per block.

Valid Triton: the same file runs under Triton 3.6 and Kiln.
  attn_fwd(Q, K, V, sm_scale, Out,
           stride_qz, stride_qh, stride_qm, stride_qk,
           stride_kz, stride_kh, stride_kn, stride_kk,
           stride_vz, stride_vh, stride_vn, stride_vk,
           stride_oz, stride_oh, stride_om, stride_ok,
           H, N_CTX, HEAD_DIM, BLOCK_M, BLOCK_N, CAUSAL)
  grid: (cdiv(N_CTX, BLOCK_M), Z * H); Q, K, V are [Z, H, N_CTX, HEAD_DIM] fp16 (or bf16),
  Out the same shape in its own dtype; HEAD_DIM a power of two >= 16.
"""
import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, K, V, sm_scale, Out,
             stride_qz, stride_qh, stride_qm, stride_qk,
             stride_kz, stride_kh, stride_kn, stride_kk,
             stride_vz, stride_vh, stride_vn, stride_vk,
             stride_oz, stride_oh, stride_om, stride_ok,
             H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    zh = tl.program_id(1)
    z = zh // H
    h = zh % H
    q_base = Q + z.to(tl.int64) * stride_qz + h.to(tl.int64) * stride_qh
    k_base = K + z.to(tl.int64) * stride_kz + h.to(tl.int64) * stride_kh
    v_base = V + z.to(tl.int64) * stride_vz + h.to(tl.int64) * stride_vh
    o_base = Out + z.to(tl.int64) * stride_oz + h.to(tl.int64) * stride_oh

    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    cols = tl.arange(0, BLOCK_N)
    q = tl.load(q_base + rows[:, None] * stride_qm + dims[None, :] * stride_qk,
                mask=rows[:, None] < N_CTX, other=0.0)

    qk_scale = sm_scale * 1.44269504  # softmax through exp2: fold log2(e) in
    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32) + 1.0
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    # Causal: keys after the block's last query contribute nothing.
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        keys = start_n + cols
        kt = tl.load(k_base + keys[None, :] * stride_kn + dims[:, None] * stride_kk,
                     mask=keys[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, kt) * qk_scale
        keep = keys[None, :] < N_CTX
        if CAUSAL:
            keep = keep & (rows[:, None] >= keys[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + keys[:, None] * stride_vn + dims[None, :] * stride_vk,
                    mask=keys[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    # l_i started at 1 with m_i at -inf: the first block's alpha = 0 clears it.
    out = acc / l_i[:, None]
    tl.store(o_base + rows[:, None] * stride_om + dims[None, :] * stride_ok,
             out.to(Out.dtype.element_ty), mask=rows[:, None] < N_CTX)
