# Kernels that no tuning went into: the layout and axis analysis must give
# them coalesced and, where proven, vectorized accesses (see
# test/Target/codegen-*.test).
import triton
import triton.language as tl


@triton.jit
def row_copy(X, Y, stride, N, BLOCK: tl.constexpr):
    # One row per program; stride and N need not be multiples of 16.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
    tl.store(Y + row * stride + cols, x, mask=mask)


@triton.jit
def persistent_rows(X, Y, stride, N, n_rows, BLOCK: tl.constexpr):
    # A persistent loop over rows: divisibility of `stride` must reach the
    # addresses through the induction variable and the product.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    for r in range(pid, n_rows, nprog):
        x = tl.load(X + r * stride + cols, mask=mask, other=0.0)
        tl.store(Y + r * stride + cols, x * 2.0, mask=mask)


@triton.jit
def column_sum(X, Out, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A 2-D tile accumulated in a `while` loop, reduced along axis 0 after it.
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    i = 0
    while i < M:
        rows = i + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        i += BLOCK_M
    tl.store(Out + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def row_sums_in_loop(X, Out, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # A tile reduced along axis 0 in every iteration.
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    total = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for i in range(0, M, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        total += tl.sum(x.to(tl.float32), axis=0)
    tl.store(Out + cols, total, mask=cols < N)


@triton.jit
def four_rows(X, Y, stride, N, BLOCK: tl.constexpr):
    # A constant-trip loop: fully unrolled, its four loads issued together.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(0, 4):
        acc += tl.load(X + (row * 4 + k) * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, acc.to(tl.float16), mask=cols < N)


@triton.jit
def gathered_rows_weighted(Idx, W, V, Out, n, stride_v, BLOCK_N: tl.constexpr, D: tl.constexpr):
    # lightllm's decode reduction (token_attention_softmax_and_reducev.py):
    # per iteration 64 row indices and 64 weights, broadcast with [:, None]
    # against the gathered rows, on one warp.
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    acc = tl.zeros([D], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        idx = tl.load(Idx + start + offs_n, mask=start + offs_n < n, other=0)
        w = tl.load(W + start + offs_n, mask=start + offs_n < n, other=0.0)
        p = tl.exp(w - tl.max(w, 0))
        v = tl.load(V + idx[:, None] * stride_v + offs_d[None, :])
        acc += tl.sum(p[:, None] * v, 0)
    tl.store(Out + offs_d, acc)


@triton.jit
def block_scaled_dot(A, B, C, As, Bs, K, group_n, group_k, stride_am, stride_bn, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # vLLM's _w8a8_block_int8_matmul: a row scale per row of A, a column
    # scale gathered by `offs_n // group_n`, both applied to the accumulator;
    # B is K-major (N x K), as int8 wgmma wants.
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] + offs_n[None, :] * stride_bn
    bs_ptrs = Bs + offs_n // group_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        offs_ks = (k * BLOCK_K) // group_k
        a_s = tl.load(As + offs_m * K + offs_ks)
        b_s = tl.load(bs_ptrs + offs_ks)
        acc += tl.dot(a, b).to(tl.float32) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16))
