# A 2-D copy written with block pointers and the same copy with a pointer
# tensor and masks (block-ptr-vector.test compares their PTX).
import triton
import triton.language as tl


@triton.jit
def bp_copy(X, Y, M, N, sxm, sym, sn: tl.constexpr, BM: tl.constexpr,
            BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(X, (M, N), (sxm, sn), (pm * BM, pn * BN), (BM, BN),
                            (1, 0))
    dst = tl.make_block_ptr(Y, (M, N), (sym, sn), (pm * BM, pn * BN), (BM, BN),
                            (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1), padding_option="zero"),
             boundary_check=(0, 1))


@triton.jit
def ptr_copy(X, Y, M, N, sxm, sym, sn: tl.constexpr, BM: tl.constexpr,
             BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * sxm + cols[None, :] * sn, mask=mask,
                other=0.0)
    tl.store(Y + rows[:, None] * sym + cols[None, :] * sn, x, mask=mask)


@triton.jit
def bp_loop(X, Out, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    p = tl.make_block_ptr(X, (M, K), (sxm, 1), (tl.program_id(0) * BM, 0),
                          (BM, BK), (1, 0))
    acc = tl.zeros((BM, BK), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = tl.advance(p, (0, BK))
    o = tl.make_block_ptr(Out, (M, BK), (BK, 1), (tl.program_id(0) * BM, 0),
                          (BM, BK), (1, 0))
    tl.store(o, acc, boundary_check=(0,))
