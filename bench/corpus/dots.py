"""Matrix products on tensor cores, written for this corpus: a tiled matmul
with grouped program order and masked M/N/K tails, and a fused attention
forward (online softmax over key blocks, two tl.dot per block).

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(A, B, C, M, N, K, stride_a, stride_b, stride_c,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # C = A @ B (row-major, fp32 accumulation); programs walk GROUP_M rows of
    # blocks at a time so that neighbours share A and B tiles in L2.
    pid = tl.program_id(0)
    blocks_m = tl.cdiv(M, BLOCK_M)
    blocks_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * blocks_n
    first_m = (pid // per_group) * GROUP_M
    group_m = tl.minimum(blocks_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % group_m
    pid_n = (pid % per_group) // group_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = A + rm[:, None] * stride_a + rk[None, :]
    b_ptrs = B + rk[:, None] * stride_b + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_b
    tl.store(C + rm[:, None] * stride_c + rn[None, :], acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attention_kernel(Q, K, V, O, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # O = softmax(Q K^T * sm_scale) V per (batch * head), Q/K/V/O
    # [Z*H, N_CTX, HEAD_DIM] contiguous; exp2 with log2(e) folded in.
    start_m = tl.program_id(0)
    off = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    cols = tl.arange(0, BLOCK_N)
    q = tl.load(Q + off + rows[:, None] * HEAD_DIM + dims[None, :],
                mask=rows[:, None] < N_CTX, other=0.0)
    scale = sm_scale * 1.44269504
    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        keys = start_n + cols
        kt = tl.load(K + off + keys[None, :] * HEAD_DIM + dims[:, None],
                     mask=keys[None, :] < N_CTX, other=0.0)
        s = tl.where(keys[None, :] < N_CTX, tl.dot(q, kt) * scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + off + keys[:, None] * HEAD_DIM + dims[None, :],
                    mask=keys[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(O + off + rows[:, None] * HEAD_DIM + dims[None, :],
             (acc / l_i[:, None]).to(O.dtype.element_ty), mask=rows[:, None] < N_CTX)


@triton.jit
def bmm_bias_kernel(A, B, C, bias, M, N, K, stride_ab, stride_bb, stride_cb,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C[z] = A[z] @ B[z] + bias[z] (row-major batches on grid axis 2; 64-bit
    # batch offsets), the bias added in the accumulator's layout.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    z = tl.program_id(2).to(tl.int64)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = A + z * stride_ab + rm[:, None] * K + rk[None, :]
    b_ptrs = B + z * stride_bb + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] + k0 < K), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] + k0 < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    acc += tl.load(bias + z * N + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
    tl.store(C + z * stride_cb + rm[:, None] * N + rn[None, :], acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def moe_gemm_kernel(A, B, C, slot_ids, block_expert, num_slots, N, K,
                    stride_a, stride_e, stride_b, stride_c,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    TOP_K: tl.constexpr):
    # Mixture-of-experts GEMM as vLLM's fused MoE runs it: slots (token x
    # top-k choice) sorted by expert and padded per expert to whole blocks;
    # block b multiplies the tokens of its slots by expert block_expert[b]'s
    # K x N weights. Padding slots (id == num_slots) are neither read nor
    # written. One program per (slot block, column block), row blocks outer.
    pid = tl.program_id(0)
    blocks_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // blocks_n
    pid_n = pid % blocks_n
    slot = tl.load(slot_ids + pid_m * BLOCK_M + tl.arange(0, BLOCK_M))
    live = slot < num_slots
    expert = tl.load(block_expert + pid_m).to(tl.int64)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    a_ptrs = A + (slot // TOP_K)[:, None] * stride_a + ks[None, :]
    b_ptrs = B + expert * stride_e + ks[:, None] * stride_b + cols[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=live[:, None] & (ks[None, :] < K - k0), other=0.0)
        b = tl.load(b_ptrs, mask=(ks[:, None] < K - k0) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_b
    tl.store(C + slot[:, None] * stride_c + cols[None, :], acc.to(C.dtype.element_ty),
             mask=live[:, None] & (cols[None, :] < N))


@triton.jit
def block_scaled_int8_matmul_kernel(A, B, C, A_scale, B_scale, M, N, K, group_n, group_k,
                                    stride_a, stride_b, stride_c, BLOCK_M: tl.constexpr,
                                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = sum over K blocks of (A_k @ B_k^T) * a_scale[m, k] * b_scale[n // group_n, k]:
    # int8 A (M x K) and B (N x K, K-major, as quantized weights are stored),
    # fp32 scales per row of A and per group_n columns of B for each group_k
    # of K (BLOCK_K divides group_k); int32 products scaled in fp32.
    pid = tl.program_id(0)
    blocks_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // blocks_n
    pid_n = pid % blocks_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    # Rows and columns past the edge read the last one (stored nowhere).
    rm_in = tl.minimum(rm, M - 1)
    rn_in = tl.minimum(rn, N - 1)
    a_ptrs = A + rm_in[:, None] * stride_a + rk[None, :]
    b_ptrs = B + rn_in[None, :] * stride_b + rk[:, None]
    k_groups = tl.cdiv(K, group_k)
    a_scale_ptrs = A_scale + rm_in * k_groups
    b_scale_ptrs = B_scale + (rn_in // group_n) * k_groups
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0)
        group = (k * BLOCK_K) // group_k
        a_scale = tl.load(a_scale_ptrs + group)
        b_scale = tl.load(b_scale_ptrs + group)
        acc += tl.dot(a, b).to(tl.float32) * a_scale[:, None] * b_scale[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    tl.store(C + rm[:, None] * stride_c + rn[None, :], acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def block_scaled_fp8_matmul_kernel(A, B, C, A_scale, B_scale, M, N, K, group_n, group_k,
                                   stride_am, stride_bn, stride_cm, stride_as, stride_bs,
                                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # fp8 (e4m3) A (M x K, per-token-group scales) times fp8 B (N x K, K-major
    # weights, one scale per group_n x group_k block), the scheme of
    # DeepSeek-style fp8 checkpoints: each K step's fp32 products scaled by
    # a_scale[m, g] * b_scale[n // group_n, g]. Programs ordered in groups of
    # GROUP_M row blocks (L2 reuse of B); rows / columns past the edge wrap.
    pid = tl.program_id(0)
    blocks_m = tl.cdiv(M, BLOCK_M)
    blocks_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * blocks_n
    first_m = (pid // in_group) * GROUP_M
    group_rows = min(blocks_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group_rows)
    pid_n = (pid % in_group) // group_rows
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = A + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = B + rn[None, :] * stride_bn + rk[:, None]
    a_scale_ptrs = A_scale + rm * stride_as
    b_scale_ptrs = B_scale + (rn // group_n) * stride_bs
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0.0)
        g = (k * BLOCK_K) // group_k
        a_s = tl.load(a_scale_ptrs + g)
        b_s = tl.load(b_scale_ptrs + g)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    out_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    out_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(C + out_m[:, None] * stride_cm + out_n[None, :], acc.to(C.dtype.element_ty),
             mask=(out_m[:, None] < M) & (out_n[None, :] < N))
