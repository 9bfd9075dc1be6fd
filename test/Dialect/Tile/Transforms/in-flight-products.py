# A pipelined loop's wgmma product into an accumulator that only the next
# iteration reads stays in flight across the back edge (tile.wgmma_pending)
# only where the accumulator fits beside what the next iteration computes
# before waiting for it (InFlightProducts.cpp): a thread's 255 registers
# less a margin of 32.
#
# Attention at HEAD_DIM 64, 128 x 128 blocks, 4 warps: O's accumulator (64
# registers) beside the scores (128): P @ V stays in flight, and the next
# iteration waits for it where it rescales O.
# RUN: ln-compile %s --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,64],div=16x16>,tensordesc<fp16[128,64],div=16x16>,tensordesc<fp16[128,64],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=64 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FITS
# At HEAD_DIM 128 the accumulator takes 128 registers, the scores 128 more:
# P @ V is waited for in its own iteration (in flight it made ptxas spill
# 3.2 KB per thread; 14.2 -> 5.5 ms on the H200).
# RUN: ln-compile %s --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=SPILLS
# With 8 warps (two warp groups) each takes half: in flight again.
# RUN: ln-compile %s --kernel attn --num-warps 8 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FITS
# Two accumulators of 128 x 128 (a gate and an up projection, Liger's
# fused MLP): 128 registers each on 4 warps, so neither stays in flight
# beside the other; 64 each on 8 warps, both do.
# RUN: ln-compile %s --kernel two_products --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,*bf16:16,i32:16' \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=TWO4
# RUN: ln-compile %s --kernel two_products --num-warps 8 --num-stages 3 \
# RUN:   --signature 'tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,tensordesc<bf16[128,64],div=16x16>,*bf16:16,i32:16' \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=TWO8
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
# SPILLS-LABEL: func.func @attn(
# SPILLS-NOT: wgmma_pending


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

# TWO4-LABEL: func.func @two_products(
# TWO4-NOT: wgmma_pending
# TWO8-LABEL: func.func @two_products(
# TWO8: scf.for
# TWO8: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
# TWO8: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
