# A pipelined loop's wgmma product into an accumulator that only the next
# iteration reads stays in flight across the back edge (tile.wgmma_pending;
# InFlightProducts.cpp), whatever registers the accumulator takes beside
# the next iteration's tensors: the warp group's wgmmas are issued block of
# 64 rows by block (WgmmaToLLVM.cpp), so ptxas finishes one block's scores
# before the next's.
#
# Attention at HEAD_DIM 64, 128 x 128 blocks, 4 warps: O's accumulator (64
# registers) beside the scores (128): P @ V stays in flight, and the next
# iteration waits for it where it rescales O.
# RUN: ln-compile %s --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,64],div=16x16>,tensordesc<fp16[128,64],div=16x16>,tensordesc<fp16[128,64],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=64 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FITS
# At HEAD_DIM 128 the accumulator takes 128 registers, the scores 128 more:
# in flight too (session 50 kept it synchronous, which the wgmmas' old
# K-step order made ptxas spill less: 1.1 KB against 3.2; in flight in the
# block order it spills 96 bytes, 7.0 -> 3.1 ms on the H200, Triton 3.7).
# RUN: ln-compile %s --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FITS
# RUN: ln-compile %s --kernel attn --num-warps 8 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FITS
# The PTX of the 4-warp one: the scores' 16 wgmmas (two 64-row blocks, 8 K
# steps each) write the first block's 64 accumulator registers 8 times,
# then the second block's.
# RUN: ln-compile %s --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=ptx | FileCheck %s --check-prefix=ORDER
# Two accumulators of 128 x 128 (a gate and an up projection, Liger's
# fused MLP), on 4 warps and on 8: both stay in flight.
# RUN: ln-compile %s --kernel two_products --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,*bf16:16,i32:16' \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=TWO
# RUN: ln-compile %s --kernel two_products --num-warps 8 --num-stages 3 \
# RUN:   --signature 'tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,*bf16:16,i32:16' \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=TWO
import triton
import triton.language as tl


@triton.jit
def attn(q_desc, k_desc, v_desc, o, N, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    row0 = tl.program_id(1) * N
    q = q_desc.load([row0 + tl.program_id(0) * BM, 0])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.full([BM], 1.0, tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N, BN):
        qk = tl.dot(q, k_desc.load([row0 + start, 0]).T)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v_desc.load([row0 + start, 0]), acc)
        m_i = m_new
    offs = (row0 + tl.program_id(0) * BM + tl.arange(0, BM))[:, None] * D + tl.arange(0, D)[None, :]
    tl.store(o + offs, (acc / l_i[:, None]).to(tl.float16))

# FITS-LABEL: func.func @attn(
# FITS: scf.for
# FITS: tile.dot_wait
# FITS: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
# FITS: scf.yield
# ORDER: wgmma.fence
# ORDER: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {[[B0:%r[0-9]+]],
# ORDER-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {[[B0]],
# ORDER: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {[[B1:%r[0-9]+]],
# ORDER-NOT: {[[B0]],
# ORDER-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {[[B1]],
# ORDER: wgmma.commit_group


@triton.jit
def two_products(x_desc, wg_desc, wu_desc, out, K, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc_g = tl.zeros([BM, BN], tl.float32)
    acc_u = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        x = x_desc.load([m, k])
        acc_g = tl.dot(x, wg_desc.load([n, k]).T, acc_g)
        acc_u = tl.dot(x, wu_desc.load([n, k]).T, acc_u)
    offs = (m + tl.arange(0, BM))[:, None] * K + n + tl.arange(0, BN)[None, :]
    tl.store(out + offs, (acc_g * tl.sigmoid(acc_g) * acc_u).to(tl.bfloat16))

# TWO-LABEL: func.func @two_products(
# TWO: scf.for
# TWO: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
# TWO: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
