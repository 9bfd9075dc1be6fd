# The slots' shared-memory budget counts what each dot stages per operand
# (PipelineLoops.cpp slotBudgetBytes, NextTilePrologue.cpp scratchEstimate):
# an operand read from a slot (a load the loop pipelines, maybe through its
# transpose), wgmma's register A (P in the accumulator's fragments) and a
# conversion that keeps every element in its thread stage nothing, and a
# reduction within warps takes no scratch.
#
# Attention (in-flight-products.py's kernel) at HEAD_DIM 128, 64 x 128
# blocks, 4 warps, 3 stages: Q's one slot (16 KB) and three of K and V (3 x
# 64 KB) fit 227 KB. Counting K, V and P as staged by their dots (and a 16
# KB floor) left room for two.
# RUN: ln-compile %S/in-flight-products.py --kernel attn --num-warps 4 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[64,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=64 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=THREE
# THREE: tile.local_alloc : <1x64x128xf16>
# THREE: tile.local_alloc : <3x128x128xf16, barriers>
# THREE: tile.local_alloc : <3x128x128xf16>
# THREE-NOT: tile.local_alloc
#
# 128 x 128 blocks on 8 warps asking for 4 stages: Q's 32 KB and 3 x 64 KB
# (224 KB) fit, a fourth slot does not; the kernel takes no more.
# RUN: ln-compile %S/in-flight-products.py --kernel attn --num-warps 8 --num-stages 4 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=FULL
# RUN: ln-compile %S/in-flight-products.py --kernel attn --num-warps 8 --num-stages 4 \
# RUN:   --signature 'tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,tensordesc<fp16[128,128],div=16x16>,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=128 -D BN=128 --emit=llvm-dialect | FileCheck %s --check-prefix=FULL-SMEM
# FULL: tile.local_alloc : <1x128x128xf16>
# FULL: tile.local_alloc : <3x128x128xf16, barriers>
# FULL: tile.local_alloc : <3x128x128xf16>
# FULL-SMEM: tile.shared_bytes = 229408
#
# By pointers on 8 warps, 64 x 128 blocks, 2 stages (cp.async slots on
# mma.sync: the warps split N): one slot each would let a second program
# on the SM by shared memory, but not by registers (the accumulator, the
# scores and the probabilities: ptxas gives it 175 a thread, two programs
# of 256 threads have 128), so the loop keeps two slots and its copies
# ahead of its products rather than refill the slot it reads.
# RUN: ln-compile %s --kernel attn_ptr --num-warps 8 --num-stages 2 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   -D D=128 -D BM=64 -D BN=128 --emit=tile-layout | FileCheck %s --check-prefix=NOREFILL
# NOREFILL: tile.local_alloc : <1x64x128xf16>
# NOREFILL: tile.local_alloc : <2x128x128xf16, transposed>
# NOREFILL: tile.local_alloc : <2x128x128xf16>
import triton
import triton.language as tl


@triton.jit
def attn_ptr(q_ptr, k_ptr, v_ptr, o, N, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    row0 = tl.program_id(1) * N
    rows = row0 + tl.program_id(0) * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    cols = tl.arange(0, BN)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.full([BM], 1.0, tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for start in range(0, N, BN):
        keys = row0 + start + cols
        kt = tl.load(k_ptr + keys[None, :] * D + dims[:, None])
        qk = tl.dot(q, kt)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + keys[:, None] * D + dims[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o + rows[:, None] * D + dims[None, :], (acc / l_i[:, None]).to(tl.float16))
