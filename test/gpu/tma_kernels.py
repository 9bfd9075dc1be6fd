"""Descriptor blocks feeding tl.dot in loops: what Kiln copies with TMA on sm_90 (host tensor
descriptors, 2-D blocks, f16 / bf16 / f32). Launch signatures:

  tma_mm[grid](a_desc, b_desc, c, M, N, K, BM=, BN=, BK=, SHIFT=)      grid (cdiv(M, BM), cdiv(N, BN))
  tma_mm_bt[grid](a_desc, bt_desc, c, M, N, K, BM=, BN=, BK=)           B stored N x K, read .T
  tma_persistent[grid](a_desc, b_desc, c, M, N, K, BM=, BN=, BK=)        any grid, tiles strided
  tma_dev_mm[grid](a, bt, c, M, N, K, sa, sb, BM=, BN=, BK=, NAN=)      descriptors made in the
                                                                        kernel; B stored N x K
  tma_dev_grouped[grid](ptrs, sizes, groups, BM=, BN=, BK=)             tutorial 08's shape: per
      group g, ptrs[3g:3g+3] = A (M x K fp16), Bt (N x K fp16), C (M x N fp32) addresses and
      sizes[3g:3g+3] = M, N, K; grid = total tiles; descriptors made per group

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
# Descriptors made in the kernel: tensor maps built in global scratch before the loop.
# RUN: ln-compile %s --kernel tma_dev_grouped --signature '*i64:16,*i32:16,i32' -D BM=128 -D BN=128 -D BK=64 --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=GROUPED
# GROUPED: tile.global_scratch = 256
# GROUPED: scf.for
# GROUPED: scf.if
# GROUPED: tile.tensormap_create
# GROUPED: tile.tensormap_create
# GROUPED: tile.tma_copy
# GROUPED: scf.for
# GROUPED: tile.tma_wait
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


@triton.jit
def tma_dev_mm(a, bt, c, M, N, K, sa, sb, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               NAN: tl.constexpr):
    pad: tl.constexpr = "nan" if NAN else "zero"
    a_desc = tl.make_tensor_descriptor(a, [M, K], [sa, 1], [BM, BK], padding_option=pad)
    b_desc = tl.make_tensor_descriptor(bt, [N, K], [sb, 1], [BN, BK])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([pn * BN, k * BK]).T)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def tma_dev_grouped(ptrs, sizes, groups, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    start = 0
    for g in range(groups):
        gm = tl.load(sizes + g * 3)
        gn = tl.load(sizes + g * 3 + 1)
        gk = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BN)
        tiles = tl.cdiv(gm, BM) * tiles_n
        if tile >= start and tile < start + tiles:
            a = tl.load(ptrs + g * 3).to(tl.pointer_type(tl.float16))
            bt = tl.load(ptrs + g * 3 + 1).to(tl.pointer_type(tl.float16))
            c = tl.load(ptrs + g * 3 + 2).to(tl.pointer_type(tl.float32))
            a_desc = tl.make_tensor_descriptor(a, [gm, gk], [gk, 1], [BM, BK])
            b_desc = tl.make_tensor_descriptor(bt, [gn, gk], [gk, 1], [BN, BK])
            t = tile - start
            pm = t // tiles_n
            pn = t % tiles_n
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k in range(0, tl.cdiv(gk, BK)):
                acc += tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([pn * BN, k * BK]).T)
            rm = pm * BM + tl.arange(0, BM)
            rn = pn * BN + tl.arange(0, BN)
            tl.store(c + rm[:, None] * gn + rn[None, :], acc,
                     mask=(rm[:, None] < gm) & (rn[None, :] < gn))
        start += tiles
