"""Descriptor blocks feeding tl.dot in loops: what Kiln copies with TMA on sm_90 (host tensor
descriptors, 2-D blocks, f16 / bf16 / f32). Launch signatures:

  tma_mm[grid](a_desc, b_desc, c, M, N, K, BM=, BN=, BK=, SHIFT=)      grid (cdiv(M, BM), cdiv(N, BN))
  tma_mm_bt[grid](a_desc, bt_desc, c, M, N, K, BM=, BN=, BK=)           B stored N x K, read .T
  tma_persistent[grid](a_desc, b_desc, c, M, N, K, BM=, BN=, BK=)        any grid, tiles strided

Each kernel compiles to TMA copies (lit): the persistent one arms and invalidates its mbarriers
once per tile, around the inner loop.
"""
# RUN: ln-compile %s --kernel tma_mm --signature 'tensordesc<fp16[64,64]>,tensordesc<fp16[64,64]>,*fp32:16,i32,i32,i32' -D BM=64 -D BN=64 -D BK=64 -D SHIFT=8 --emit=ptx | FileCheck %s
# RUN: ln-compile %s --kernel tma_mm_bt --signature 'tensordesc<fp16[64,128]>,tensordesc<fp16[64,128]>,*fp32:16,i32,i32,i32' -D BM=64 -D BN=64 -D BK=128 --emit=ptx | FileCheck %s
# RUN: ln-compile %s --kernel tma_persistent --signature 'tensordesc<bf16[128,64]>,tensordesc<bf16[64,128]>,*fp32:16,i32,i32,i32' -D BM=128 -D BN=128 -D BK=64 --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=PERSIST
# CHECK: .param .align 64 .b8 {{.*}}_param_12[128],
# CHECK-NEXT: .param .align 64 .b8 {{.*}}_param_13[128]
# CHECK: cp.async.bulk.tensor.2d
# CHECK: mbarrier.try_wait.parity
# CHECK: wgmma.mma_async
# PERSIST: scf.for
# PERSIST: tile.tma_init
# PERSIST: scf.for
# PERSIST: tile.tma_wait
# PERSIST: scf.yield
# PERSIST: tile.tma_inval
# PERSIST: tile.store
import triton
import triton.language as tl


@triton.jit
def tma_mm(a_desc, b_desc, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           SHIFT: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM - SHIFT, k])
        b = b_desc.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def tma_mm_bt(a_desc, bt_desc, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = bt_desc.load([pn * BN, k]).T
        acc += tl.dot(a, b)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def tma_persistent(a_desc, b_desc, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
        pm = t // tiles_n
        pn = t % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([pm * BM, k]), b_desc.load([k, pn * BN]), acc)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        tl.store(c + rm[:, None] * N + rn[None, :], acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))
