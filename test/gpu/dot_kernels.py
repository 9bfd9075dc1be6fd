"""tl.dot kernels for the Kiln-vs-Triton comparison (test/gpu/cases_dot.py).

Valid Triton; no host code. Signatures (all tensors contiguous, row-major):
  dot_block(A, B, C, ACC, BM, BN, BK, PRECISION, HAS_ACC, EPILOGUE, TRANS_B)
      one program: C[BM, BN] = epilogue(A[BM, BK] @ B[BK, BN] (+ ACC)), the
      product in C's element type (out_dtype = C's dtype; int32 for int8).
      TRANS_B: B is stored N x K and transposed with tl.trans.
      EPILOGUE: 0 none, 1 leaky ReLU, 2 c*2 + row sums (a reduction of the
      product), 3 bias: c + A's first column broadcast along N.
      grid (1,)
  dot_kloop(A, B, C, M, N, K, BM, BN, BK)
      C = A @ B for M x K and K x N fp16 (any M, N, K: masked edges), fp32
      accumulator carried through the K loop, C fp32.
      grid (cdiv(M, BM), cdiv(N, BN))
  attention_block(Q, K, V, O, SEQ, D, BLOCK_N, CAUSAL)
      one program: O[SEQ, D] = softmax(Q K^T / sqrt(D)) V for fp16 Q, K, V of
      SEQ x D, online softmax over key blocks of BLOCK_N (the fused attention
      forward's inner loop; CAUSAL masks keys after the query). O fp32.
      grid (1,)
  dot3d(A, B, C, ACC, BB, BM, BN, BK, PRECISION, HAS_ACC)
      one program: C[BB, BM, BN] = A[BB, BM, BK] @ B[BB, BK, BN] (+ ACC), a 3-D
      (batched) tl.dot as Triton's test_dot3d writes it; out_dtype = C's dtype.
      grid (1,)
"""
import triton
import triton.language as tl

# Every kernel compiles to PTX (no GPU needed).
# RUN: ln-compile %s --kernel dot_block --signature '*fp16,*fp16,*fp32,*fp32' -D BM=64 -D BN=64 -D BK=32 -D PRECISION='"tf32"' -D HAS_ACC=1 -D EPILOGUE=2 -D TRANS_B=1 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot_block --signature '*fp32,*fp32,*fp32,*fp32' -D BM=32 -D BN=32 -D BK=16 -D PRECISION='"tf32x3"' -D HAS_ACC=0 -D EPILOGUE=1 -D TRANS_B=0 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot_block --signature '*i8,*i8,*i32,*i32' -D BM=32 -D BN=64 -D BK=64 -D PRECISION='"tf32"' -D HAS_ACC=1 -D EPILOGUE=3 -D TRANS_B=0 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot_kloop --signature '*fp16,*fp16,*fp32,i32,i32,i32' -D BM=64 -D BN=64 -D BK=32 --emit=ptx -o /dev/null
# The examples the family also runs (examples/matmul/):
# RUN: ln-compile %S/../../examples/matmul/matmul.py --kernel matmul_kernel --signature '*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32' -D BLOCK_SIZE_M=64 -D BLOCK_SIZE_N=64 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=8 -D 'ACTIVATION="leaky_relu"' --emit=ptx -o /dev/null
# RUN: ln-compile %S/../../examples/matmul/batched_matmul.py --kernel bmm_kernel --signature '*fp32,*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32' -D BLOCK_M=32 -D BLOCK_N=32 -D BLOCK_K=32 -D HAS_BIAS=0 --emit=ptx -o /dev/null
# RUN: ln-compile %S/../../examples/matmul/attention_fwd.py --kernel attn_fwd --signature '*fp16,*fp16,*fp16,fp32,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D CAUSAL=1 --num-warps 8 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot3d --signature '*fp16,*fp16,*fp32,*fp32' -D BB=4 -D BM=32 -D BN=16 -D BK=32 -D PRECISION='"tf32"' -D HAS_ACC=1 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot3d --signature '*fp32,*fp32,*fp32,*fp32' -D BB=2 -D BM=16 -D BN=16 -D BK=16 -D PRECISION='"ieee"' -D HAS_ACC=0 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel dot3d --signature '*i8,*i8,*i32,*i32' -D BB=1 -D BM=16 -D BN=32 -D BK=32 -D PRECISION='"tf32"' -D HAS_ACC=1 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel attention_block --signature '*fp16,*fp16,*fp16,*fp32' -D SEQ=64 -D D=64 -D BLOCK_N=32 -D CAUSAL=1 --emit=ptx -o /dev/null


@triton.jit
def dot_block(A, B, C, ACC, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              PRECISION: tl.constexpr, HAS_ACC: tl.constexpr, EPILOGUE: tl.constexpr,
              TRANS_B: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    if TRANS_B:
        b = tl.trans(tl.load(B + rn[:, None] * BK + rk[None, :]))
    else:
        b = tl.load(B + rk[:, None] * BN + rn[None, :])
    out_ty = C.dtype.element_ty
    if HAS_ACC:
        acc = tl.load(ACC + rm[:, None] * BN + rn[None, :])
        c = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=out_ty)
    else:
        c = tl.dot(a, b, input_precision=PRECISION, out_dtype=out_ty)
    if EPILOGUE == 1:
        c = tl.where(c >= 0, c, 0.01 * c)
    if EPILOGUE == 2:
        c = c * 2 + tl.sum(c, axis=1)[:, None]
    if EPILOGUE == 3:
        first = tl.load(A + rm * BK).to(out_ty)
        c = c + first[:, None]
    tl.store(C + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def dot_block_mmajor(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A stored K x M and loaded M-contiguous, outside any loop: the dot stages
    # it itself, K rows of M (wgmma M-major; ldmatrix.trans on mma.sync).
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] + rk[None, :] * BM)
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    tl.store(C + rm[:, None] * BN + rn[None, :], tl.dot(a, b))


@triton.jit
def dot_kloop(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_kloop_chain(A1, B1, A2, B2, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr):
    # Two products into one accumulator per K step (Liger's fused-MLP dI:
    # dG @ Wg + dU @ Wu), the second B read K-contiguous (transposed).
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a_mask = (rm[:, None] < M) & ((k0 + rk)[None, :] < K)
        b_mask = ((k0 + rk)[:, None] < K) & (rn[None, :] < N)
        a1 = tl.load(A1 + rm[:, None] * K + (k0 + rk)[None, :], mask=a_mask, other=0.0)
        b1 = tl.load(B1 + (k0 + rk)[:, None] * N + rn[None, :], mask=b_mask, other=0.0)
        acc = tl.dot(a1, b1, acc)
        a2 = tl.load(A2 + rm[:, None] * K + (k0 + rk)[None, :], mask=a_mask, other=0.0)
        b2 = tl.load(B2 + rn[None, :] * K + (k0 + rk)[:, None], mask=b_mask, other=0.0)
        acc = tl.dot(a2, b2, acc)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_kloop_strided(A, B, C, M, N, K, s_am, s_ak, s_bk, s_bn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      PRECISION: tl.constexpr):
    # Any operand strides: K-contiguous B (s_bk = 1) and gathered operands
    # (no stride 1) are the tf32 operands sm_90 reads K-major from slots.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * s_am + (k0 + rk)[None, :] * s_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * s_bk + rn[None, :] * s_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_kloop_int8(A, B, C, M, N, K, s_am, s_ak, s_bk, s_bn,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # int8 operands, int32 accumulator (a quantized GEMM): sm_90 runs s8
    # wgmma on K-major slots when B is K-contiguous (s_bk = 1), mma.sync
    # otherwise.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * s_am + (k0 + rk)[None, :] * s_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        b = tl.load(B + (k0 + rk)[:, None] * s_bk + rn[None, :] * s_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_scaled_kloop(A, B, S, T, C, M, N, K, s_am, s_ak,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # mamba's chunk state: B's rows scaled in fp32 by factors loaded in the loop
    # (a vector and a scalar), cast back, then the dot; A may be M-contiguous.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * s_am + (k0 + rk)[None, :] * s_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0).to(tl.float32)
        s = tl.load(S + k0 + rk, mask=k0 + rk < K, other=0.0)
        t = tl.load(T + k0 // BK)
        b *= (tl.exp(s) * t)[:, None]
        acc += tl.dot(a, b.to(A.dtype.element_ty))
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_carried_offsets_kloop(A, B, S, C, M, N, K,
                              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The fused-attention backward's `offs_m`: a name reassigned in the loop and
    # read only in that iteration, carried by the loop though nothing reads the
    # carried value; A's columns scaled by a vector loaded in the loop.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    k0 = 0
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        offs_k = k0 + tl.arange(0, BK)
        a = tl.load(A + rm[:, None] * K + offs_k[None, :],
                    mask=(rm[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        s = tl.load(S + offs_k, mask=offs_k < K, other=0.0)
        b = tl.load(B + offs_k[:, None] * N + rn[None, :],
                    mask=(offs_k[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot((a * s[None, :]).to(A.dtype.element_ty), b, acc)
        k0 += BK
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_computed_a_kloop(CB, D, X, C, M, N, K,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # mamba's chunk scan: A is an fp32 tile scaled by loaded factors and cast.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        cb = tl.load(CB + rm[:, None] * K + (k0 + rk)[None, :],
                     mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        d = tl.load(D + k0 + rk, mask=k0 + rk < K, other=0.0)
        cb *= tl.exp(tl.minimum(d, 0.0))[None, :]
        x = tl.load(X + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(cb.to(X.dtype.element_ty), x)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_computed_a_causal(CB, D, X, C, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # mamba's chunk scan: the product before the loop is scaled by row factors,
    # so the loop's A (an fp32 tile scaled by them, causally masked) is computed
    # in the accumulator's layout and multiplied from registers.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    dm = tl.load(D + rm)
    q = tl.load(X + rm[:, None] * BN + rn[None, :])
    p = tl.load(X + rn[:, None] * BN + rn[None, :])
    acc = tl.dot(q, p) * dm[:, None]
    for k0 in range(0, K, BK):
        cb = tl.load(CB + rm[:, None] * K + (k0 + rk)[None, :])
        d = tl.load(D + k0 + rk)
        cb *= tl.exp(tl.minimum(dm[:, None] - d[None, :], 0.0))
        cb = tl.where(rm[:, None] >= k0 + rk[None, :], cb, 0.0)
        x = tl.load(X + (k0 + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(cb.to(X.dtype.element_ty), x)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def attention_block(Q, K, V, O, SEQ: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr):
    rq = tl.arange(0, SEQ)
    rd = tl.arange(0, D)
    rn = tl.arange(0, BLOCK_N)
    q = tl.load(Q + rq[:, None] * D + rd[None, :])
    m_i = tl.zeros((SEQ,), dtype=tl.float32) - float("inf")
    l_i = tl.zeros((SEQ,), dtype=tl.float32)
    acc = tl.zeros((SEQ, D), dtype=tl.float32)
    scale = 1.44269504 / (D ** 0.5)  # log2(e) / sqrt(D): softmax through exp2
    for start in range(0, SEQ, BLOCK_N):
        keys = start + rn
        kt = tl.load(K + keys[None, :] * D + rd[:, None])  # D x BLOCK_N
        qk = tl.dot(q, kt) * scale
        if CAUSAL:
            qk = tl.where(rq[:, None] >= keys[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + keys[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(O + rq[:, None] * D + rd[None, :], acc / l_i[:, None])


@triton.jit
def dot3d(A, B, C, ACC, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
          BK: tl.constexpr, PRECISION: tl.constexpr, HAS_ACC: tl.constexpr):
    rb = tl.arange(0, BB)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rb[:, None, None] * BM * BK + rm[None, :, None] * BK + rk[None, None, :])
    b = tl.load(B + rb[:, None, None] * BK * BN + rk[None, :, None] * BN + rn[None, None, :])
    c_offs = rb[:, None, None] * BM * BN + rm[None, :, None] * BN + rn[None, None, :]
    if HAS_ACC:
        c = tl.dot(a, b, tl.load(ACC + c_offs), input_precision=PRECISION,
                   out_dtype=C.dtype.element_ty)
    else:
        c = tl.dot(a, b, input_precision=PRECISION, out_dtype=C.dtype.element_ty)
    tl.store(C + c_offs, c)


@triton.jit
def dot_scaled_block(A, AS, B, BS, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     AF: tl.constexpr, BF: tl.constexpr, HAS_AS: tl.constexpr,
                     HAS_BS: tl.constexpr, FAST: tl.constexpr):
    """One microscaled product: A is [M, K] (fp8 bytes, bf16) or [M, K // 2]
    (e2m1, two codes per byte), B is [K, N] or [K // 2, N]; scales are e8m0
    bytes, [M, K // 32] and [N, K // 32], or absent (HAS_*S = False)."""
    KA: tl.constexpr = K // 2 if AF == "e2m1" else K
    KB: tl.constexpr = K // 2 if BF == "e2m1" else K
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rg = tl.arange(0, K // 32)
    a = tl.load(A + rm[:, None] * KA + tl.arange(0, KA)[None, :])
    b = tl.load(B + tl.arange(0, KB)[:, None] * N + rn[None, :])
    sa = None
    sb = None
    if HAS_AS:
        sa = tl.load(AS + rm[:, None] * (K // 32) + rg[None, :])
    if HAS_BS:
        sb = tl.load(BS + rn[:, None] * (K // 32) + rg[None, :])
    c = tl.dot_scaled(a, sa, AF, b, sb, BF, fast_math=FAST)
    tl.store(C + rm[:, None] * N + rn[None, :], c)


@triton.jit
def dot_gathered_rows(A, B, C, AS, BS, token_ids, expert_ids, num_valid, N, K, KB,
                      stride_am, stride_be, stride_bk, stride_cm,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      TOP_K: tl.constexpr, SCALED: tl.constexpr):
    # vLLM's fused MoE: each block of BM slots takes its A rows through gathered
    # token ids (slot // TOP_K) and multiplies them by its expert's B; padding
    # slots (ids >= num_valid) write nothing. SCALED: per-row and per-expert
    # scales of each K block, as block-quantized (fp8 w8a8) MoE applies them.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    slots = tl.load(token_ids + pid_m * BM + tl.arange(0, BM))
    valid = slots < num_valid
    expert = tl.load(expert_ids + pid_m).to(tl.int64)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + (slots[:, None] // TOP_K) * stride_am + rk[None, :]
    b_ptrs = B + expert * stride_be + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=valid[:, None] & (rk[None, :] < K - kb * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - kb * BK) & (rn[None, :] < N), other=0.0)
        if SCALED:
            a_s = tl.load(AS + (slots // TOP_K) * KB + kb, mask=valid, other=0.0)
            b_s = tl.load(BS + expert * KB + kb)
            acc += tl.dot(a, b) * a_s[:, None] * b_s
        else:
            acc += tl.dot(a, b)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(C + slots[:, None] * stride_cm + rn[None, :], acc,
             mask=valid[:, None] & (rn[None, :] < N))


@triton.jit
def dot_paged_kloop(A, B, C, Table, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr):
    # Paged attention's K/V: row k of the logical B is B[Table[k]], the page
    # table read in the K loop itself. The copies of B need this iteration's
    # table entries: Kiln's pipeliner runs the table load in stage 0 with them.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rows = tl.load(Table + k0 + rk, mask=k0 + rk < K, other=0)
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(k0 + rk)[None, :] < K, other=0.0)
        b = tl.load(B + rows[:, None] * stride_bk + rn[None, :],
                    mask=(k0 + rk)[:, None] < K, other=0.0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def dot_state_recurrence(Kt, V, W, G, H, VNEW, T, K: tl.constexpr, NV: tl.constexpr,
                         BT: tl.constexpr, BV: tl.constexpr, USE_GK: tl.constexpr):
    # fla's chunked delta-rule state (chunk_gated_delta_rule_fwd_kernel_h): the fp32
    # state h [K, BV] of one column block is stored before every chunk of BT rows,
    # read as a dot operand (v_new = v - w @ h), decayed by exp(g), and accumulated
    # with h += k^T @ v_new. Rows past T are masked; `o_k` is reassigned only under
    # a constexpr `if`, so the loop carries it unchanged when USE_GK is False.
    i_v = tl.program_id(0)
    o_v = i_v * BV + tl.arange(0, BV)
    o_k = tl.arange(0, K)
    b_h = tl.zeros([K, BV], dtype=tl.float32)
    for i_t in range(tl.cdiv(T, BT)):
        o_t = i_t * BT + tl.arange(0, BT)
        m_t = o_t < T
        tl.store(H + i_t * K * NV + o_k[:, None] * NV + o_v[None, :],
                 b_h.to(H.dtype.element_ty))
        b_w = tl.load(W + o_t[:, None] * K + o_k[None, :], mask=m_t[:, None], other=0.0)
        b_v = tl.dot(b_w, b_h.to(b_w.dtype))
        b_v = tl.load(V + o_t[:, None] * NV + o_v[None, :], mask=m_t[:, None], other=0.0) - b_v
        tl.store(VNEW + o_t[:, None] * NV + o_v[None, :], b_v.to(VNEW.dtype.element_ty),
                 mask=m_t[:, None])
        last = min((i_t + 1) * BT, T) - 1
        b_g_last = tl.load(G + last)
        b_g = tl.load(G + o_t, mask=m_t, other=0.0)
        b_v = b_v * tl.where(m_t, tl.exp(b_g_last - b_g), 0.0)[:, None]
        b_h *= tl.exp(b_g_last)
        if USE_GK:
            o_k = tl.arange(0, K)
            b_h *= tl.exp(tl.load(G + last + o_k * 0))[:, None]
        b_k = tl.load(Kt + o_k[:, None] + o_t[None, :] * K, mask=m_t[None, :], other=0.0)
        b_h += tl.dot(b_k, b_v.to(b_k.dtype))


@triton.jit
def dot_block_solve(Kx, Beta, Ai, KD: tl.constexpr, BC: tl.constexpr, PREC: tl.constexpr):
    """(I + A)^-1 of one 2 x 2-block lower-triangular A = beta * K K^T per program, as
    fla's chunk_gated_delta_rule_fwd_kkt_solve_kernel computes it: products of 16 x 16
    blocks, a forward substitution whose rows come out of the block by axis-0 sums and go
    back in as row vectors (a reduced vector read along the other axis), the block merge
    feeding accumulators to further products as A and as B operands."""
    pid = tl.program_id(0)
    o = tl.arange(0, BC)
    o_k = tl.arange(0, KD)
    rows0 = pid * 2 * BC + o
    rows1 = rows0 + BC
    k0 = tl.load(Kx + rows0[:, None] * KD + o_k[None, :])
    k1 = tl.load(Kx + rows1[:, None] * KD + o_k[None, :])
    b0 = tl.load(Beta + rows0).to(tl.float32)
    b1 = tl.load(Beta + rows1).to(tl.float32)
    m_d = o[:, None] > o[None, :]
    m_I = o[:, None] == o[None, :]
    a00 = tl.where(m_d, tl.dot(k0, tl.trans(k0)), 0.) * b0[:, None]
    a11 = tl.where(m_d, tl.dot(k1, tl.trans(k1)), 0.) * b1[:, None]
    a10 = tl.dot(k1, tl.trans(k0)) * b1[:, None]
    ai00 = -a00
    ai11 = -a11
    for i in range(2, BC):
        r = tl.sum(tl.where((o == i)[:, None], -a00, 0.), 0)
        r = tl.where(o < i, r, 0.)
        r = r + tl.sum(r[:, None] * ai00, 0)
        ai00 = tl.where((o == i)[:, None], r, ai00)
    for i in range(2, BC):
        r = tl.sum(tl.where((o == i)[:, None], -a11, 0.), 0)
        r = tl.where(o < i, r, 0.)
        r = r + tl.sum(r[:, None] * ai11, 0)
        ai11 = tl.where((o == i)[:, None], r, ai11)
    ai00 += m_I
    ai11 += m_I
    ai10 = -tl.dot(tl.dot(ai11, a10, input_precision=PREC), ai00, input_precision=PREC)
    out = Ai + rows0[:, None] * (2 * BC) + o[None, :]
    tl.store(out, ai00.to(Ai.dtype.element_ty))
    tl.store(out + BC * 2 * BC, ai10.to(Ai.dtype.element_ty))
    tl.store(out + BC * 2 * BC + BC, ai11.to(Ai.dtype.element_ty))


@triton.jit
def dot_gram_blocks(Kx, Q, Out, T, KD: tl.constexpr, BC: tl.constexpr, BK: tl.constexpr):
    """The lower blocks of K K^T for two BC-row blocks of K per program, accumulated over
    K chunks in a loop whose second block sits under a branch, as fla's kkt solve's K loop
    (each block read as A and, transposed, as B by several products), and (2 Q) K0^T with
    the scaled Q made before the loop (a tile the loop's product reads every iteration).
    Out holds 4 BC x BC blocks per program: a00, a10, a11, qk."""
    pid = tl.program_id(0)
    o = tl.arange(0, BC)
    ok = tl.arange(0, BK)
    rows0 = pid * 2 * BC + o
    rows1 = rows0 + BC
    q = (tl.load(Q + rows0[:, None] * BK + ok[None, :]) * 2.0).to(Q.dtype.element_ty)
    a00 = tl.zeros([BC, BC], dtype=tl.float32)
    a10 = tl.zeros([BC, BC], dtype=tl.float32)
    a11 = tl.zeros([BC, BC], dtype=tl.float32)
    qk = tl.zeros([BC, BC], dtype=tl.float32)
    for i in range(0, KD, BK):
        k0 = tl.load(Kx + rows0[:, None] * KD + i + ok[None, :])
        a00 += tl.dot(k0, tl.trans(k0))
        qk += tl.dot(q, tl.trans(k0))
        if pid * 2 * BC + BC < T:
            k1 = tl.load(Kx + rows1[:, None] * KD + i + ok[None, :])
            a11 += tl.dot(k1, tl.trans(k1))
            a10 += tl.dot(k1, tl.trans(k0))
    out = Out + (pid * 4 * BC + o[:, None]) * BC + o[None, :]
    tl.store(out, a00)
    tl.store(out + BC * BC, a10)
    tl.store(out + 2 * BC * BC, a11)
    tl.store(out + 3 * BC * BC, qk)
