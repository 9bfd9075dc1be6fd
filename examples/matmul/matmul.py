"""Matrix multiplication C = A @ B (optionally followed by a leaky ReLU), in the
shape of Triton's matmul tutorial (03-matrix-multiplication): each program
computes one BLOCK_SIZE_M x BLOCK_SIZE_N block of C, and programs are ordered
in groups of GROUP_SIZE_M block rows so that consecutive programs reuse the
same columns of B while they are in the L2 cache.

Valid Triton: the same file runs under Triton 3.6 and Kiln.
  matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, ACTIVATION)
  grid: (cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N),)
  A is M x K, B is K x N (any strides), C is M x N and receives fp16 (the
  accumulator is fp32; C's element type decides the final conversion).
  ACTIVATION: "" or "leaky_relu".
"""
import triton
import triton.language as tl


@triton.jit
def leaky_relu(x):
    # Negative values are scaled by 0.01 instead of dropped.
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    # Which block of C this program owns: walk the blocks group by group,
    # each group being GROUP_SIZE_M block rows traversed column-major.
    pid = tl.program_id(axis=0)
    blocks_m = tl.cdiv(M, BLOCK_SIZE_M)
    blocks_n = tl.cdiv(N, BLOCK_SIZE_N)
    blocks_per_group = GROUP_SIZE_M * blocks_n
    group = pid // blocks_per_group
    group_first_m = group * GROUP_SIZE_M
    group_rows = min(blocks_m - group_first_m, GROUP_SIZE_M)
    pid_m = group_first_m + ((pid % blocks_per_group) % group_rows)
    pid_n = (pid % blocks_per_group) // group_rows

    # Rows of A and columns of B wrap around (the modulo) so that loads of
    # edge blocks stay in bounds; the store below masks what lies outside C.
    rows = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        # The last step may run past K: masked elements read as zero.
        k_left = K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(c_ptr.dtype.element_ty)

    out_rows = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * out_rows[:, None] + stride_cn * out_cols[None, :]
    c_mask = (out_rows[:, None] < M) & (out_cols[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)
