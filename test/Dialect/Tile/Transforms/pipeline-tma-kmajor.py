# tf32, fp8 and int8 B operands written as the transpose of an N x K descriptor block
# (tutorial 09's `tl.dot(a, b_desc.load([n, k]).T)`): on sm_90 the block is not
# sunk into a transposed pointer load but copied by TMA as the tensor stores it,
# N rows of K, which is the K-major B their wgmma reads: the dot reads
# `tile.trans(tile.local_load)` of the slot in place. Host descriptors and ones
# made in the kernel, with or without divisible shapes (TMA needs no alignment;
# before, an fp8 B not proven 4-byte aligned kept the loop on mma.sync).
# RUN: ln-compile %s --kernel mm_t \
# RUN:   --signature 'tensordesc<fp8e4nv[128,64]>,tensordesc<fp8e4nv[128,64]>,*fp32:16,i32,128,128,64' \
# RUN:   --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel mm_t \
# RUN:   --signature 'tensordesc<fp8e4nv[128,64]>,tensordesc<fp8e4nv[128,64]>,*fp32:16,i32,128,128,64' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel mm_t \
# RUN:   --signature 'tensordesc<fp32[64,32],div=16x16>,tensordesc<fp32[64,32],div=16x16>,*fp32:16,i32:16,64,64,32' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=TF32
# RUN: ln-compile %s --kernel mm_made --num-warps 8 \
# RUN:   --signature '*fp8e4nv:16,*fp8e4nv:16,*fp32:16,i32:16,i32:16,i32:16,128,128,128' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=MADE
# int8 blocks are copied by TMA too (as bytes, like fp8), B read through the
# transpose by the s8 wgmma.
# RUN: ln-compile %s --kernel mm_i8 \
# RUN:   --signature 'tensordesc<i8[128,64]>,tensordesc<i8[128,64]>,*i32:16,i32,128,128,64' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=I8
# A loaded through pointers (cp.async, K-major as the axis analysis proves)
# with B by TMA: still one wgmma reading both slots.
# RUN: ln-compile %s --kernel mixed \
# RUN:   --signature '*fp8e4nv:16,tensordesc<fp8e4nv[128,64],div=16x16>,*fp32:16,i32:16,128,128,64' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=MIXED
# Ahead-of-time kernels have no TMA: B is sunk into a transposed load and
# copied by cp.async into a transposed slot, as before.
# RUN: ln-compile %s --kernel mm_t --emit=aot-source --ptxas=none \
# RUN:   --signature 'tensordesc<fp32[64,32],div=16x16>,tensordesc<fp32[64,32],div=16x16>,*fp32:16,i32:16,64,64,32' \
# RUN:   | FileCheck %s --check-prefix=AOT
# An fp8 A read through a transpose cannot be K-major: mma.sync, both
# operands through registers (B's transpose too).
# RUN: ln-compile %s --kernel mm_at \
# RUN:   --signature 'tensordesc<fp8e4nv[64,128],div=16x16>,tensordesc<fp8e4nv[128,64],div=16x16>,*fp32:16,i32:16,128,128,64' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=AT
import triton
import triton.language as tl


@triton.jit
def mm_t(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([m, k])
        b = b_desc.load([0, k])
        acc = tl.dot(a, b.T, acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# CHECK: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
# CHECK-LABEL: func.func @mm_t(
# CHECK-SAME: tile.name = "b_desc.tensormap", tile.tensormap = 4 : i64, tile.tma_box = array<i64: 128, 64>, tile.tma_swizzle = 64 : i64}
# CHECK: %[[A:.*]] = tile.local_alloc : <3x128x64xf8E4M3FN, barriers>
# CHECK-NEXT: %[[B:.*]] = tile.local_alloc : <3x128x64xf8E4M3FN>
# CHECK-NOT: tile.async_copy
# CHECK: scf.for
# CHECK: %[[ASLOT:.*]] = tile.local_load %[[A]]
# CHECK-NEXT: %[[BSLOT:.*]] = tile.local_load %[[B]][%{{.*}}] : <3x128x64xf8E4M3FN> -> tensor<128x64xf8E4M3FN
# CHECK-NEXT: %[[BKN:.*]] = tile.trans %[[BSLOT]], [1, 0] : tensor<128x64xf8E4M3FN, #{{.*}}> -> tensor<64x128xf8E4M3FN
# CHECK-NEXT: tile.dot %[[ASLOT]], %[[BKN]], %{{.*}} {tile.wgmma_pending = 1 : i32}
# CHECK: tile.tma_copy %{{.*}} into %[[A]]
# CHECK-NEXT: tile.tma_copy %{{.*}} into %[[B]][%{{.*}}] arrive %[[A]]
# CHECK-NOT: tile.async_copy

# PTX-NOT: cp.async.cg
# PTX-NOT: mma.sync
# PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
# PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
# PTX-NOT: cp.async.cg
# PTX-NOT: mma.sync

# TF32-NOT: cp.async.cg
# TF32: cp.async.bulk.tensor.2d
# TF32: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
# TF32-NOT: cp.async.cg

# AOT-NOT: cp.async.bulk
# AOT: cp.async.cg.shared.global
# AOT: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32


@triton.jit
def mm_made(a_ptr, b_ptr, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    m = tl.program_id(0) * BM
    n0 = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([m, k])
        b = b_desc.load([n0, k])
        acc = tl.dot(a, b.T, acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * N + (n0 + n)[None, :], acc)


# MADE-LABEL: func.func @mm_made(
# MADE: %[[AMAP:.*]] = tile.tensormap_create
# MADE: %[[BMAP:.*]] = tile.tensormap_create
# MADE: %[[A:.*]] = tile.local_alloc : <3x128x128xf8E4M3FN, barriers>
# MADE-NEXT: %[[B:.*]] = tile.local_alloc : <3x128x128xf8E4M3FN>
# MADE-NOT: tile.async_copy
# MADE: scf.for
# MADE: tile.trans
# MADE-NEXT: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32}
# MADE: tile.tma_copy %[[AMAP]][%{{.*}}] into %[[A]]
# MADE-NEXT: tile.tma_copy %[[BMAP]][%{{.*}}] into %[[B]][%{{.*}}] arrive %[[A]]
# MADE-NOT: tile.async_copy


@triton.jit
def mm_at(at_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(at_desc.load([k, m]).T, b_desc.load([0, k]).T, acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# AT-NOT: wgmma
# AT-NOT: cp.async
# AT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32


@triton.jit
def mm_i8(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([0, k]).T, acc, out_dtype=tl.int32)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# I8-NOT: cp.async.cg
# I8: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
# I8: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8
# I8-NOT: cp.async.cg


@triton.jit
def mixed(a, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    r = tl.arange(0, BM)
    kk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + (m + r)[:, None] * K + (k + kk)[None, :])
        acc = tl.dot(x, b_desc.load([0, k]).T, acc)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# MIXED-NOT: mma.sync
# MIXED: cp.async.cg.shared.global
# MIXED: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
# MIXED: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
# MIXED-NOT: mma.sync
