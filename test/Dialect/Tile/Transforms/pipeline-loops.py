# --tile-pipeline-loops (run by ln-compile after layout assignment, so seen in
# the tile-layout stage): the loads feeding tl.dot in a K loop become async
# copies num_stages - 1 iterations ahead into shared-memory slots.
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --arch sm_80 --emit=tile-layout | FileCheck %s --check-prefix=S3
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --arch sm_80 --num-stages 5 --emit=tile-layout | FileCheck %s --check-prefix=S5
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=W90
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=W90PTX
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --num-stages 1 --emit=tile-layout | FileCheck %s --check-prefix=OFF
# RUN: ln-compile %s --kernel kloop_odd --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32' -D BK=16 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=ODDSMALL
# RUN: ln-compile %s --kernel kloop_odd --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32' -D BK=64 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=ODDLARGE
# RUN: ln-compile %s --kernel kloop_odd --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32' -D BK=64 \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=ODDPTX
# RUN: ln-compile %s --kernel staged --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --num-stages 1 --emit=tile-layout | FileCheck %s --check-prefix=RANGE
# RUN: ln-compile %s --kernel ptr_used --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=KEEP
# RUN: ln-compile %s --kernel nonzero_other --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=OTHER
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --arch sm_80 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %S/../../../Conversion/Inputs/attention_fwd.py --kernel attention -D BLOCK_M=64 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=ATTN
# RUN: ln-compile %S/../../../Conversion/Inputs/attention_fwd.py --kernel attention -D BLOCK_M=64 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' --num-stages 1 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=ATTN1
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=UNAL
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=UNALPTX
import triton
import triton.language as tl

# K not divisible by 16: A's mask (rk < K - k) may change at every element, so
# no copy of 4 bytes or more is proven and cp.async cannot move A. As in
# Triton, the loop is not pipelined: each iteration writes both tiles into a
# one-slot buffer, waits, and the dot reads the slots (wgmma on sm_90). A stays
# a load issued before the barrier that frees its slot (its latency overlaps
# the barrier) and is stored into the slot after it; B, whose rows are whole
# 16-byte runs, is copied with cp.async.
# UNAL-LABEL: func.func @kloop
# UNAL: %[[BA:[0-9]+]] = tile.local_alloc : <1x128x32xf16>
# UNAL: %[[BB:[0-9]+]] = tile.local_alloc : <1x32x128xf16>
# UNAL: scf.for
# UNAL: %[[LA:[0-9]+]] = tile.load %arg{{[0-9]+}}, mask
# UNAL: tile.barrier
# UNAL-NEXT: %[[SLOT:c0_i32[_0-9]*]] = arith.constant 0 : i32
# UNAL-NEXT: tile.local_store %[[LA]] into %[[BA]][%[[SLOT]]]
# UNAL-NEXT: %[[OFFS:[0-9]+]] = tile.splat %arg{{[0-9]+}} : i64
# UNAL-NEXT: %[[PB:[0-9]+]] = tile.addptr %{{[0-9]+}}, %[[OFFS]]
# UNAL-NEXT: tile.async_copy %[[PB]], mask %{{[0-9]+}} into %[[BB]][%[[SLOT]]]
# UNAL-NEXT: tile.async_commit
# UNAL-NEXT: tile.async_wait {pending = 0 : i32}
# UNAL-NEXT: %[[A:[0-9]+]] = tile.local_load %[[BA]][%[[SLOT]]]
# UNAL-NEXT: %[[B:[0-9]+]] = tile.local_load %[[BB]][%[[SLOT]]]
# UNAL-NEXT: tile.dot %[[A]], %[[B]]
# UNAL-NOT: tile.load
# UNAL: tile.store
# All of A's element loads come before the barrier; the element-wise stores
# after it address the swizzled slot as one thread base plus immediates (the
# swizzle is linear over the coordinates' bits), not one loop-invariant
# register per element.
# UNALPTX: @%p{{[0-9]+}} ld.global.b16
# UNALPTX-NOT: st.shared
# UNALPTX: bar.sync 0;
# UNALPTX-NOT: ld.global
# UNALPTX: st.shared.b16 [%r[[BASE:[0-9]+]]], %rs
# UNALPTX: st.shared.b16 [%r{{[0-9]+}}+256], %rs
# UNALPTX: st.shared.b16 [%r[[BASE]]+512], %rs
# UNALPTX: st.shared.b16 [%r{{[0-9]+}}+768], %rs
# UNALPTX: st.shared.b16 [%r[[BASE]]+1024], %rs
# UNALPTX: cp.async.cg.shared.global
# UNALPTX: cp.async.wait_group 0;
# UNALPTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

# Three stages (the default) on mma.sync: two slots are filled before the loop, one
# group each; every iteration waits for its own group (1 may stay pending),
# starts the copies two iterations ahead into the slot read last time, and
# multiplies the tiles of its slot. The pointers are carried two iterations
# ahead; K's tail is masked by the loads' masks and, past the end, by the
# iteration's own range check.
# S3-LABEL: func.func @kloop
# S3: %[[BA:[0-9]+]] = tile.local_alloc : <3x128x32xf16>
# S3: %[[BB:[0-9]+]] = tile.local_alloc : <3x32x128xf16>
# S3: arith.cmpi slt, %c0_i32, %arg3 : i32
# S3: tile.async_copy {{.*}} into %[[BA]][%c0_i32{{.*}}]
# S3: tile.async_copy {{.*}} into %[[BB]][%c0_i32{{.*}}]
# S3-NEXT: tile.async_commit
# S3: tile.async_copy {{.*}} into %[[BA]][%c1_i32{{.*}}]
# S3: tile.async_copy {{.*}} into %[[BB]][%c1_i32{{.*}}]
# S3-NEXT: tile.async_commit
# The copies' pointers, carried ahead, are the initial ones plus one i64
# offset per operand (--tile-rebase-copy-pointers): A advances 32 elements,
# B 32 rows of 128.
# S3: scf.for %[[K:arg[0-9]+]] = {{.*}} iter_args(%[[ACC:arg[0-9]+]] = {{.*}}, %[[COPY:arg[0-9]+]] = %c2_i32, %[[READ:arg[0-9]+]] = %c0_i32{{[_0-9]*}}, %[[OB:arg[0-9]+]] = %c0_i64, %[[OA:arg[0-9]+]] = %c0_i64)
# S3-SAME: -> (tensor<128x128xf32, #mma>, i32, i32, i64, i64)
# S3-NEXT: tile.async_wait {pending = 1 : i32}
# S3-NEXT: %[[AHEAD:[0-9]+]] = arith.addi %[[K]], %{{.*}} : i32
# S3-NEXT: arith.cmpi slt, %[[AHEAD]], %arg3 : i32
# S3: %[[SA:[0-9]+]] = tile.splat %[[OA]] : i64 -> tensor<128x32xi64, #blocked1>
# S3-NEXT: %[[PA:[0-9]+]] = tile.addptr %{{[0-9]+}}, %[[SA]] : tensor<128x32x!tile.ptr<f16>, #blocked1>, tensor<128x32xi64, #blocked1>
# S3-NEXT: %[[SB:[0-9]+]] = tile.splat %[[OB]] : i64 -> tensor<32x128xi64, #blocked>
# S3-NEXT: %[[PB:[0-9]+]] = tile.addptr %{{[0-9]+}}, %[[SB]]
# S3: tile.async_copy %[[PA]], mask %{{[0-9]+}} into %[[BA]][%[[COPY]]]
# S3: tile.async_copy %[[PB]], mask %{{[0-9]+}} into %[[BB]][%[[COPY]]]
# S3-NEXT: tile.async_commit
# S3-NEXT: %[[A:[0-9]+]] = tile.local_load %[[BA]][%[[READ]]] : <3x128x32xf16> -> tensor<128x32xf16
# S3-NEXT: %[[B:[0-9]+]] = tile.local_load %[[BB]][%[[READ]]] : <3x32x128xf16> -> tensor<32x128xf16
# S3-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
# S3: %[[NB:[0-9]+]] = arith.addi %[[OB]], %c4096_i64 : i64
# S3-NEXT: %[[NA:[0-9]+]] = arith.addi %[[OA]], %c32_i64 : i64
# S3-NEXT: scf.yield %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[NB]], %[[NA]]
# S3: tile.async_wait {pending = 0 : i32}
# S3-NOT: tile.load
# S3: tile.store

# Five stages on mma.sync: four slots, not five. Each iteration multiplies
# the tiles of its slot, synchronizes and refills that same slot four
# iterations ahead (the copy and read slots start together).
# S5-LABEL: func.func @kloop
# S5: %[[BA:[0-9]+]] = tile.local_alloc : <4x128x32xf16>
# S5: %[[BB:[0-9]+]] = tile.local_alloc : <4x32x128xf16>
# S5: tile.async_copy {{.*}} into %[[BA]][%c3_i32{{.*}}]
# S5: scf.for %[[K:arg[0-9]+]] = {{.*}} iter_args(%[[ACC:arg[0-9]+]] = {{.*}}, %[[COPY:arg[0-9]+]] = %c0_i32{{[_0-9]*}}, %[[READ:arg[0-9]+]] = %c0_i32{{.*}})
# S5-NEXT: tile.async_wait {pending = 3 : i32}
# S5-NEXT: %[[A:[0-9]+]] = tile.local_load %[[BA]][%[[READ]]]
# S5-NEXT: %[[B:[0-9]+]] = tile.local_load %[[BB]][%[[READ]]]
# S5-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
# S5-NEXT: tile.barrier
# S5: tile.async_copy %{{[0-9]+}}, mask %{{[0-9]+}} into %[[BA]][%[[COPY]]]
# S5: tile.async_copy %{{[0-9]+}}, mask %{{[0-9]+}} into %[[BB]][%[[COPY]]]
# S5-NEXT: tile.async_commit
# S5: scf.yield
# S5: tile.async_wait {pending = 0 : i32}

# A decode-sized mma.sync loop (vLLM's fused MoE at 16 tokens: a 16 x 128 A,
# a 128 x 256 B, 68 KB a stage, 8 warps along N) at two stages: two slots
# would fit one program per SM, one fits two, so the loop refills the slot it
# just read after the products (as Triton's mma.sync loops do), one slot per
# operand. Where a slot fewer only adds a third program (S3 above: 2 -> 3
# on sm_80), the copies still go first.
# RUN: ln-compile %s --kernel decode_tile --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --num-warps 8 --num-stages 2 --emit=tile-layout | FileCheck %s --check-prefix=DEC2
# DEC2-LABEL: func.func @decode_tile
# DEC2: %[[BA:[0-9]+]] = tile.local_alloc : <1x16x128xf16>
# DEC2: %[[BB:[0-9]+]] = tile.local_alloc : <1x128x256xf16>
# DEC2: scf.for %[[K:arg[0-9]+]] = {{.*}} iter_args(%[[ACC:arg[0-9]+]] = {{.*}}, %[[COPY:arg[0-9]+]] = %c0_i32{{[_0-9]*}}, %[[READ:arg[0-9]+]] = %c0_i32{{.*}})
# DEC2-NEXT: tile.async_wait {pending = 0 : i32}
# DEC2-NEXT: %[[A:[0-9]+]] = tile.local_load %[[BA]][%[[READ]]]
# DEC2-NEXT: %[[B:[0-9]+]] = tile.local_load %[[BB]][%[[READ]]]
# DEC2-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
# DEC2-NEXT: tile.barrier
# DEC2: tile.async_copy %{{[0-9]+}}, mask %{{[0-9]+}} into %[[BA]][%[[COPY]]]
# DEC2: tile.async_copy %{{[0-9]+}}, mask %{{[0-9]+}} into %[[BB]][%[[COPY]]]
# DEC2-NEXT: tile.async_commit
# DEC2: scf.yield

# On sm_90 the products are wgmma (all 4 warps along M) and stay in flight
# into the next iteration: each iteration computes first, then synchronizes
# and refills the slot the previous iteration read; the accumulator the loop
# yields is waited for after it.
# W90-DAG: #[[MMA:.*]] = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
# W90-LABEL: func.func @kloop
# W90: scf.for
# W90-NEXT: tile.async_wait {pending = 1 : i32}
# W90-NEXT: %[[A:[0-9]+]] = tile.local_load
# W90-NEXT: %[[B:[0-9]+]] = tile.local_load
# W90-NEXT: tile.dot %[[A]], %[[B]], %{{.*}} {tile.wgmma_pending = 1 : i32}
# W90-NEXT: tile.barrier
# W90: tile.async_copy
# W90: tile.async_copy
# W90-NEXT: tile.async_commit
# W90: scf.yield
# W90: tile.async_wait {pending = 0 : i32}
# W90-NEXT: %[[ACC:[0-9]+]] = tile.dot_wait %{{[0-9]+}}#0 : tensor<128x128xf32, #[[MMA]]>
# W90: arith.truncf %[[ACC]]

# wgmma reads both slots through matrix descriptors; the module targets
# sm_90a. The wait and the barrier order the copies before wgmma: cp.async
# writes need no proxy fence (st.shared writes do: pipeline-companions.py).
# W90PTX: .target sm_90a
# W90PTX: .extern .shared .align 1024 .b8 kiln_smem[];
# W90PTX-NOT: fence.proxy.async
# W90PTX: cp.async.wait_group 1;
# W90PTX-NEXT: // end inline asm
# W90PTX-NEXT: bar.sync 0;
# W90PTX: wgmma.fence.sync.aligned;
# W90PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# W90PTX: wgmma.commit_group.sync.aligned;
# W90PTX: wgmma.wait_group.sync.aligned 1;
# W90PTX: wgmma.wait_group.sync.aligned 0;
# W90PTX-NOT: mma.sync
# W90PTX-NOT: ldmatrix

# OFF-LABEL: func.func @kloop
# OFF-NOT: tile.async_copy
# OFF: tile.load
# OFF: tile.load
# OFF: tile.dot

# tl.range's num_stages wins over the launch's.
# RANGE-LABEL: func.func @staged
# RANGE: tile.local_alloc : <4x128x32xf16>
# RANGE-COUNT-3: tile.async_commit
# RANGE: tile.async_wait {pending = 2 : i32}

# Left alone: a loop that also stores through a pointer it would carry ahead.
# KEEP-NOT: tile.async_copy
# KEEP: tile.load
# KEEP: tile.dot

# A load with a nonzero `other` stays a load (the copies zero-fill); the
# other operand is still pipelined.
# OTHER: tile.local_alloc : <3x32x128xf16>
# OTHER-NOT: tile.local_alloc
# OTHER: scf.for
# OTHER-DAG: tile.async_copy {{.*}} -> <3x32x128xf16>
# OTHER-DAG: tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>
# OTHER-DAG: tile.local_load {{.*}} -> tensor<32x128xf16
# OTHER: scf.yield

# cp.async of 16-byte runs with the mask as the source size (zero fill) when
# K is a multiple of 16 (a uniform mask per 8 elements); no register loads.
# PTX-NOT: ld.global
# PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
# PTX: cp.async.commit_group;
# PTX: cp.async.wait_group 1;
# PTX-NEXT: // end inline asm
# PTX-NEXT: bar.sync 0;
# PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# PTX: cp.async.wait_group 0;


@triton.jit
def kloop(A, B, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a_ptrs = A + rm[:, None] * 32 + rk[None, :]
    b_ptrs = B + rk[:, None] * 128 + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += 32
        b_ptrs += 32 * 128
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))


@triton.jit
def decode_tile(A, B, C, K):
    rm = tl.arange(0, 16)
    rn = tl.arange(0, 256)
    rk = tl.arange(0, 128)
    a_ptrs = A + rm[:, None] * 128 + rk[None, :]
    b_ptrs = B + rk[:, None] * 256 + rn[None, :]
    acc = tl.zeros((16, 256), dtype=tl.float32)
    for k in range(0, K, 128):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += 128
        b_ptrs += 128 * 256
    tl.store(C + rm[:, None] * 256 + rn[None, :], acc.to(tl.float16))


# Both operands unaligned (row stride S unknown): with 16 + 16 elements per
# thread both loads are issued before the slots' barrier; with 64 + 64 (which
# would spill next to the accumulator and the pointers) only A is, and B is
# loaded after A is stored, as in Triton.
# ODDSMALL-LABEL: func.func @kloop_odd
# ODDSMALL: scf.for
# ODDSMALL: %[[LA:[0-9]+]] = tile.load
# ODDSMALL: %[[LB:[0-9]+]] = tile.load
# ODDSMALL: tile.barrier
# ODDSMALL-NEXT: %[[SLOT:c0_i32[_0-9]*]] = arith.constant 0 : i32
# ODDSMALL-NEXT: tile.local_store %[[LA]] into %{{[0-9]+}}[%[[SLOT]]]
# ODDSMALL-NEXT: tile.local_store %[[LB]] into %{{[0-9]+}}[%[[SLOT]]]
# ODDSMALL-NEXT: tile.async_wait {pending = 0 : i32}
# ODDLARGE-LABEL: func.func @kloop_odd
# ODDLARGE: scf.for
# ODDLARGE: %[[LA:[0-9]+]] = tile.load
# ODDLARGE-NOT: tile.load
# ODDLARGE: tile.barrier
# ODDLARGE-NEXT: %[[SLOT:c0_i32[_0-9]*]] = arith.constant 0 : i32
# ODDLARGE-NEXT: tile.local_store %[[LA]] into %{{[0-9]+}}[%[[SLOT]]]
# ODDLARGE-NEXT: %[[LB:[0-9]+]] = tile.load
# ODDLARGE-NEXT: tile.local_store %[[LB]] into %{{[0-9]+}}[%[[SLOT]]]
# ODDLARGE-NEXT: tile.async_wait {pending = 0 : i32}
# The slot's st.shared writes (the generic proxy) are fenced before wgmma
# reads them through the async proxy; the wait after cp.async copies is not.
# ODDPTX: .target sm_90a
# ODDPTX: st.shared.b16
# ODDPTX: cp.async.wait_group 0;
# ODDPTX-NEXT: // end inline asm
# ODDPTX-NEXT: // begin inline asm
# ODDPTX-NEXT: fence.proxy.async.shared::cta;
# ODDPTX-NEXT: // end inline asm
# ODDPTX-NEXT: bar.sync 0;
# ODDPTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
@triton.jit
def kloop_odd(A, B, C, K, S, BK: tl.constexpr):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * S + rk[None, :]
    b_ptrs = B + rk[:, None] * S + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * S
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))


@triton.jit
def staged(A, B, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a_ptrs = A + rm[:, None] * 32 + rk[None, :]
    b_ptrs = B + rk[:, None] * 128 + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in tl.range(0, K, 32, num_stages=4):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += 32
        b_ptrs += 32 * 128
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))


@triton.jit
def ptr_used(A, B, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a_ptrs = A + rm[:, None] * 32 + rk[None, :]
    b_ptrs = B + rk[:, None] * 128 + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 32):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        tl.store(b_ptrs, tl.zeros((32, 128), dtype=tl.float16))
        a_ptrs += 32
        b_ptrs += 32 * 128
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))


@triton.jit
def nonzero_other(A, B, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a_ptrs = A + rm[:, None] * 32 + rk[None, :]
    b_ptrs = B + rk[:, None] * 128 + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=1.0)
        acc = tl.dot(a, tl.load(b_ptrs), acc)
        a_ptrs += 32
        b_ptrs += 32 * 128
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))


# Attention on sm_90 (4 warps; test/Conversion/Inputs/attention_fwd.py, 64 query rows): Q, loaded before the loop and only multiplied
# in it, is copied once into a one-slot buffer; K^T (loaded with K
# contiguous) goes to transposed slots, V to plain ones. The scores are read
# at once (no tile.wgmma_pending); P @ V, whose accumulator only the next
# iteration reads, stays in flight: that iteration's rescaling reads it
# through a tile.dot_wait, and so does the epilogue.
# With num_stages=1 nothing in the loop is pipelined, but the queries still
# go into their slot once (vLLM's prefix prefill at num_stages=1 held its
# 128 x 128 Q in 64 registers a thread and staged it again every iteration).
# ATTN1: %[[QBUF:[0-9]+]] = tile.local_alloc : <1x64x64xf16>
# ATTN1: %[[Q:[0-9]+]] = tile.local_load %[[QBUF]]
# ATTN1: scf.for
# ATTN1-NOT: tile.local_alloc
# ATTN1: tile.dot %[[Q]], {{.*}} -> tensor<64x64xf32, #mma>
# ATTN: %[[QBUF:[0-9]+]] = tile.local_alloc : <1x64x64xf16>
# ATTN: tile.async_wait {pending = 0 : i32}
# ATTN: %[[Q:[0-9]+]] = tile.local_load %[[QBUF]]
# ATTN: tile.local_alloc : <3x64x64xf16, transposed>
# ATTN: scf.for {{.*}} iter_args(%[[ACC:arg[0-9]+]] =
# ATTN: tile.dot %[[Q]], {{.*}} -> tensor<64x64xf32, #mma>
# ATTN-NOT: wgmma_pending
# ATTN: %[[W:[0-9]+]] = tile.dot_wait %[[ACC]]
# ATTN: arith.mulf %[[W]]
# ATTN: tile.dot {{.*}} {tile.wgmma_pending = 1 : i32} : tensor<64x64xf16, #dot_op>
# ATTN: scf.yield
# ATTN: tile.dot_wait




# tf32 operands on sm_90: wgmma reads f32 only K-major, so A (K contiguous)
# keeps M rows of K and B (stored N x K, read K-contiguous) is copied into a
# transposed slot; each f32 counts as two 16-bit units of the swizzle, so a
# 32-wide K row is one 128-byte panel and each k8 step advances 32 bytes.
# The #dot_op conversions are gone: the dot reads both slots. A gathered B
# (no stride 1) is copied 4 bytes per element, also into a transposed slot.
# TF32-DAG: tile.local_alloc : <3x64x32xf32>
# TF32-DAG: tile.local_alloc : <3x32x64xf32, transposed>
# TF32-NOT: tile.convert_layout {{.*}}dot_op
# TF32: tile.dot {{.*}}tile.wgmma_pending = 1 : i32} : tensor<64x32xf32, #blocked{{[0-9]*}}>, tensor<32x64xf32, #blocked{{[0-9]*}}>
# TF32PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
# TF32PTX: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1; }
# TF32G: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4
# TF32G: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1; }
# RUN: ln-compile %s --kernel kloop_nt --signature '*fp32:16,*fp32:16,*fp32:16,i32:16,1,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=TF32
# RUN: ln-compile %s --kernel kloop_nt --signature '*fp32:16,*fp32:16,*fp32:16,i32:16,1,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=TF32PTX
# RUN: ln-compile %s --kernel kloop_nt --signature '*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=TF32G
@triton.jit
def kloop_nt(A, B, C, K, s_bk, s_bn):
    rm = tl.arange(0, 64)
    rk = tl.arange(0, 32)
    acc = tl.zeros((64, 64), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * s_bk + rm[None, :] * s_bn)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * 64 + rm[None, :], acc)


# Two tf32 dots reading one A (Liger's fused MLP: input @ gate^T and input @
# up^T): CSE leaves one #dot_op conversion of A for both, and the slot is
# shared. At 128 x 128 x 64 three 32 KB operands make a 96 KB stage: two
# stages fit only once the dots that read their operands from slots stage
# nothing (their #dot_op conversions vanish).
# TF32TWO-LABEL: func.func @kloop_shared_a(
# TF32TWO: tile.local_alloc : <2x128x64xf32>
# TF32TWO-COUNT-2: tile.local_alloc : <2x64x128xf32, transposed>
# TF32TWO-NOT: tile.convert_layout {{.*}}dot_op
# TF32TWO: scf.for
# TF32TWO: %[[A:[0-9]+]] = tile.local_load %{{[0-9]+}}[%arg{{[0-9]+}}] : <2x128x64xf32>
# Two 128-register accumulators on 4 warps: neither stays in flight beside
# the other (InFlightProducts.cpp).
# TF32TWO: tile.dot %[[A]], {{.*}} -> tensor<128x128xf32, #mma>
# TF32TWO-NEXT: tile.local_load
# TF32TWO-NEXT: tile.dot %[[A]], {{.*}} -> tensor<128x128xf32, #mma>
# TF32TWO-NOT: wgmma_pending
# TF32TWOPTX-COUNT-32: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
# TF32TWOPTX-NOT: mma.sync
# RUN: ln-compile %s --kernel kloop_shared_a --signature '*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16' \
# RUN:   --num-warps 4 --num-stages 2 --emit=tile-layout | FileCheck %s --check-prefix=TF32TWO
# RUN: ln-compile %s --kernel kloop_shared_a --signature '*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16' \
# RUN:   --num-warps 4 --num-stages 2 --emit=ptx | FileCheck %s --check-prefix=TF32TWOPTX
@triton.jit
def kloop_shared_a(A, G, U, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 64)
    gate = tl.zeros((128, 128), dtype=tl.float32)
    up = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 64):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        g = tl.load(G + rm[:, None] * K + (k + rk)[None, :])
        gate = tl.dot(a, tl.trans(g), gate)
        u = tl.load(U + rm[:, None] * K + (k + rk)[None, :])
        up = tl.dot(a, tl.trans(u), up)
    tl.store(C + rm[:, None] * 128 + rm[None, :], gate * tl.sigmoid(gate) * up)


# Two products into one accumulator per iteration (Liger's fused-MLP dI:
# dG @ Wg + dU @ Wu): the chain stays in flight as a whole. The second
# product starts on the first's accumulator without a tile.dot_wait (wgmma
# orders accumulator accesses between instructions of one shape), and each
# waits only for the group before its own.
# CHAIN: scf.for
# CHAIN-NOT: tile.dot_wait
# CHAIN: %[[D1:[0-9]+]] = tile.dot %{{[0-9]+}}, %{{[0-9]+}}, %arg{{[0-9]+}} {tile.wgmma_pending = 1 : i32}
# CHAIN-NOT: tile.dot_wait
# CHAIN: %[[D2:[0-9]+]] = tile.dot %{{[0-9]+}}, %{{[0-9]+}}, %[[D1]] {tile.wgmma_pending = 1 : i32}
# CHAIN: scf.yield %[[D2]]
# CHAIN: tile.dot_wait
# CHAINPTX: wgmma.commit_group.sync.aligned;
# CHAINPTX-NEXT: // end inline asm
# CHAINPTX-NEXT: // begin inline asm
# CHAINPTX-NEXT: wgmma.wait_group.sync.aligned 1;
# CHAINPTX: wgmma.commit_group.sync.aligned;
# CHAINPTX-NEXT: // end inline asm
# CHAINPTX-NEXT: // begin inline asm
# CHAINPTX-NEXT: wgmma.wait_group.sync.aligned 1;
# CHAINPTX: wgmma.wait_group.sync.aligned 0;
# RUN: ln-compile %s --kernel kloop_chain --signature '*bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=CHAIN
# RUN: ln-compile %s --kernel kloop_chain --signature '*bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=CHAINPTX
@triton.jit
def kloop_chain(A1, B1, A2, B2, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 64)
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 64):
        a1 = tl.load(A1 + rm[:, None] * K + (k + rk)[None, :])
        b1 = tl.load(B1 + (k + rk)[:, None] * 128 + rm[None, :])
        acc = tl.dot(a1, b1, acc)
        a2 = tl.load(A2 + rm[:, None] * K + (k + rk)[None, :])
        b2 = tl.load(B2 + (k + rk)[:, None] * 128 + rm[None, :])
        acc = tl.dot(a2, b2, acc)
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc)
