"""Batched, strided matrix multiplication: C[b] = A[b] @ B[b] (+ bias[b]) for
every b of a batch, each operand with its own strides, so transposed or
sliced views work without copies.

Valid Triton: the same file runs under Triton 3.6 and Kiln.
  bmm_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K,
             stride_ab, stride_am, stride_ak,
             stride_bb, stride_bk, stride_bn,
             stride_cb, stride_cm, stride_cn,
             BLOCK_M, BLOCK_N, BLOCK_K, HAS_BIAS)
  grid: (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), batch)
  bias is an N-vector per batch entry (stride N) when HAS_BIAS; C receives
  C's element type, the accumulator is fp32 (int32 for int8 operands).
"""
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K,
               stride_ab, stride_am, stride_ak,
               stride_bb, stride_bk, stride_bn,
               stride_cb, stride_cm, stride_cn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               HAS_BIAS: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    # 64-bit batch offsets: a batch of large matrices passes 2**31 elements.
    a_ptrs = (a_ptr + batch.to(tl.int64) * stride_ab
              + rows[:, None] * stride_am + ks[None, :] * stride_ak)
    b_ptrs = (b_ptr + batch.to(tl.int64) * stride_bb
              + ks[:, None] * stride_bk + cols[None, :] * stride_bn)
    acc_dtype = tl.int32 if a_ptr.dtype.element_ty == tl.int8 else tl.float32
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_dtype)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(rows[:, None] < M) & (ks[None, :] + k0 < K), other=0)
        b = tl.load(b_ptrs, mask=(ks[:, None] + k0 < K) & (cols[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, out_dtype=acc_dtype)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if HAS_BIAS:
        bias = tl.load(bias_ptr + batch * N + cols, mask=cols < N, other=0)
        acc = acc + bias[None, :].to(acc_dtype)
    c_ptrs = (c_ptr + batch.to(tl.int64) * stride_cb
              + rows[:, None] * stride_cm + cols[None, :] * stride_cn)
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < N))
