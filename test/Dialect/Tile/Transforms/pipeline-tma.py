# Dot operands loaded from 2-D host tensor descriptors in a pipelined loop
# are copied by TMA on sm_90: the loads record their block (descArg,
# coords), the pipeliner gives each descriptor a CUtensorMap argument after
# the others (box: the block's rows x one panel of at most 128 bytes;
# swizzle: the panel's bytes) and slots; the first buffer's slots carry one
# mbarrier each, on which both blocks of an iteration arrive. Prologue:
# barrier, tma_init (2 arrivals), the first copies predicated on the loop's
# range; loop: one wait on the read slot's phase (carried, flipped when the
# read slot wraps),
# the dot, barrier, the copy `stages - 1` iterations ahead; after the loop
# tma_inval. Neither alignment (shapes not divisible by 16) nor a NaN
# padding keeps a TMA copy from being pipelined: the copy fills the padding.
# RUN: ln-compile %s --kernel mm \
# RUN:   --signature 'tensordesc<fp16[64,32]>,tensordesc<fp16[32,128],nan>,*fp32:16,i32,64,128,32' \
# RUN:   --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel mm \
# RUN:   --signature 'tensordesc<fp16[64,32]>,tensordesc<fp16[32,128],nan>,*fp32:16,i32,64,128,32' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
# mma.sync (2 warps) at 5 stages refills the slot it just read: 4 slots.
# RUN: ln-compile %s --kernel mm --num-warps 2 --num-stages 5 \
# RUN:   --signature 'tensordesc<bf16[64,32]>,tensordesc<bf16[32,64]>,*fp32:16,i32,64,64,32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=MMA
# Off for ahead-of-time kernels (their launchers pass no tensor maps) and
# before sm_90: cp.async, or loads staged in the loop where the copies are
# not proven aligned (a NaN padding is never zero-filled by cp.async).
# RUN: ln-compile %s --kernel mm --emit=aot-source --ptxas=none \
# RUN:   --signature 'tensordesc<fp16[64,32],div=16x16>,tensordesc<fp16[32,128],div=16x16>,*fp32:16,i32,64,128,32' \
# RUN:   | FileCheck %s --check-prefix=AOT
# RUN: ln-compile %s --kernel mm --arch sm_80 \
# RUN:   --signature 'tensordesc<fp16[64,32]>,tensordesc<fp16[32,128],nan>,*fp32:16,i32,64,128,32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=SM80
import triton
import triton.language as tl


@triton.jit
def mm(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, 0]), acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# CHECK-LABEL: func.func @mm(
# CHECK-SAME: %arg10: !llvm.ptr {tile.name = "a_desc.tensormap", tile.tensormap = 0 : i64, tile.tma_box = array<i64: 64, 32>, tile.tma_swizzle = 64 : i64},
# CHECK-SAME: %arg11: !llvm.ptr {tile.name = "b_desc.tensormap", tile.tensormap = 4 : i64, tile.tma_box = array<i64: 32, 64>, tile.tma_swizzle = 128 : i64})
# CHECK: %[[A:.*]] = tile.local_alloc : <3x64x32xf16, barriers>
# CHECK: %[[B:.*]] = tile.local_alloc : <3x32x128xf16>
# CHECK: tile.barrier
# CHECK-NEXT: tile.tma_init %[[A]] {arrivals = 2 : i64}
# CHECK-NOT: tile.tma_init
# CHECK: tile.tma_copy %arg10[%{{.*}}, %c0_i32] into %[[A]][%{{.*}}] if %{{.*}}
# CHECK: tile.tma_copy %arg11[%c0_i32, %c0_i32] into %[[B]][%{{.*}}] arrive %[[A]] if %{{.*}}
# CHECK: tile.tma_copy %arg10
# CHECK: tile.tma_copy %arg11
# CHECK-NOT: tile.async_copy
# CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[COPY:.*]] = %c2_i32, %[[READ:.*]] = %c0_i32{{.*}}, %[[PHASE:.*]] = %c0_i32{{.*}})
# CHECK-NEXT: tile.tma_wait %[[A]][%[[READ]]], phase %[[PHASE]]
# CHECK-NOT: tile.tma_wait
# CHECK: tile.dot %{{.*}} {tile.wgmma_pending = 1 : i32}
# CHECK-NEXT: tile.barrier
# CHECK: tile.tma_copy %arg10[%{{.*}}, %{{.*}}] into %[[A]][%[[COPY]]]
# CHECK: tile.tma_copy %arg11[%{{.*}}, %c0_i32] into %[[B]][%[[COPY]]] arrive %[[A]]
# CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
# CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
# CHECK-NEXT: %[[WRAPPED:.*]] = arith.cmpi eq, %[[NEXT]], %{{.*}} : i32
# CHECK-NEXT: %[[FLIP:.*]] = arith.xori %[[PHASE]], %{{.*}} : i32
# CHECK-NEXT: %[[P:.*]] = arith.select %[[WRAPPED]], %[[FLIP]], %[[PHASE]] : i32
# CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %[[NEXT]], %[[P]]
# CHECK: tile.tma_inval %[[A]]
# CHECK-NOT: tile.tma_inval
# CHECK-NOT: tile.async_wait

# The tensor maps are 128-byte grid constants; B's rows of 256 bytes are two
# boxes of 64 columns (the second at column 64, 32 rows x 128 bytes on).
# PTX-LABEL: .entry mm(
# PTX: .param .align 64 .b8 mm_param_10[128],
# PTX: .param .align 64 .b8 mm_param_11[128]
# PTX: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}+16], 2;
# PTX: fence.mbarrier_init.release.cluster;
# One lane of warp 0, chosen by elect.sync, issues each copy (under a plain
# `tid == 0` test ptxas loops over the lanes to make the copy's operands
# uniform, some twenty instructions per copy).
# PTX: setp.lt.u32 %p[[W0:[0-9]+]], %r{{[0-9]+}}, 32;
# PTX: elect.sync %r{{[0-9]+}}|%p[[EL:[0-9]+]], -1;
# PTX: and.pred %p{{[0-9]+}}, %p[[W0]], %p[[EL]];
# The prologue's copies are fenced for the async proxy (the slots' bytes may
# have held a scratch exchange); in the loop, where only wgmma reads the
# slots and TMA refills them, no fence precedes the copies.
# PTX: fence.proxy.async.shared::cta;
# Both copies of an iteration arrive on the same mbarrier; the loop polls it
# once.
# PTX-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r[[BAR:[0-9]+]]], 4096;
# PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r[[BAR]]];
# PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r[[BAR]]], 8192;
# PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r[[ZERO:[0-9]+]], %r{{[0-9]+}}}], [%r[[BAR]]];
# PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r[[BAR]]];
# PTX: mbarrier.try_wait.parity.shared::cta.b64 done, [%r{{[0-9]+}}], %r{{[0-9]+}};
# PTX-NOT: mbarrier.try_wait
# PTX: wgmma.mma_async
# PTX-NOT: fence.proxy.async
# PTX: mbarrier.inval.shared::cta.b64

# MMA-LABEL: func.func @mm(
# MMA: tile.local_alloc : <4x64x32xbf16, barriers>
# MMA: tile.local_alloc : <4x32x64xbf16>
# MMA: scf.for
# MMA-NEXT: tile.tma_wait
# MMA: tile.dot
# MMA-NOT: wgmma_pending
# MMA-NEXT: tile.barrier
# MMA: tile.tma_copy %arg10{{.*}} into %{{.*}}[%[[SLOT:.*]]] if
# MMA: tile.tma_copy %arg11{{.*}} into %{{.*}}[%[[SLOT]]] arrive %{{.*}} if

# mma.sync reads the slots into registers (ldmatrix: the generic proxy), so
# the copies that refill them in the loop keep the fence.
# RUN: ln-compile %s --kernel mm --num-warps 2 --num-stages 5 \
# RUN:   --signature 'tensordesc<bf16[64,32]>,tensordesc<bf16[32,64]>,*fp32:16,i32,64,64,32' \
# RUN:   | FileCheck %s --check-prefix=MMAPTX
# MMAPTX: mbarrier.try_wait.parity.shared::cta.b64
# MMAPTX: ldmatrix
# MMAPTX: mma.sync
# MMAPTX: fence.proxy.async.shared::cta;
# MMAPTX-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64
# MMAPTX: mbarrier.inval.shared::cta.b64

# AOT-NOT: tensormap
# AOT-NOT: cp.async.bulk
# AOT: cp.async.cg.shared.global

# SM80-LABEL: func.func @mm(
# SM80-NOT: tensormap
# SM80-NOT: tile.tma_copy
# SM80: tile.local_store


# A block read once before the loop is copied into a slot by cp.async
# (stageInvariantOperand), which fills zeros: with a NaN padding it stays a
# load (the loop's block still goes by TMA, which fills the NaN itself).
# RUN: ln-compile %s --kernel q_nan \
# RUN:   --signature 'tensordesc<fp16[64,64],nan>,tensordesc<fp16[64,64],nan>,*fp32:16,i32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=QNAN
@triton.jit
def q_nan(q_desc, k_desc, out, N):
    q = q_desc.load([0, 0])
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for start in range(0, N, 64):
        acc = tl.dot(q, k_desc.load([start, 0]), acc)
    r = tl.arange(0, 64)
    tl.store(out + r[:, None] * 64 + r[None, :], acc)


# QNAN-LABEL: func.func @q_nan(
# QNAN-NOT: tile.async_copy
# QNAN: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} coords[%c0_i32{{.*}}, %c0_i32{{.*}}] {descArg = 0 : i64}
# QNAN-NOT: tile.async_copy
# QNAN: tile.tma_copy
# QNAN: scf.for


# B read as the transpose of its slot (K rows loaded N x K, `b.T`, as
# attention's K and tutorial 09's descriptor kernel do): wgmma still reads
# the slot through its descriptor, so the loop's copies need no fence.
# RUN: ln-compile %s --kernel mm_bt \
# RUN:   --signature 'tensordesc<fp16[64,32]>,tensordesc<fp16[64,32]>,*fp32:16,i32,64,64,32' \
# RUN:   | FileCheck %s --check-prefix=BT
@triton.jit
def mm_bt(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([0, k]).T, acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)


# BT: fence.proxy.async.shared::cta;
# BT-NEXT: mbarrier.arrive.expect_tx.shared::cta.b64
# BT: mbarrier.try_wait.parity.shared::cta.b64
# BT: wgmma.mma_async
# BT-NOT: fence.proxy.async
# BT: cp.async.bulk.tensor.2d
# BT-NOT: fence.proxy.async
# BT: mbarrier.inval.shared::cta.b64
