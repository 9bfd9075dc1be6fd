# A store of a 2-D descriptor block in a loop goes through a shared-memory
# slot and a TMA store on sm_90 (TmaStores.cpp): the slot is allocated
# before the op of the kernel's body that holds the store, written (after a
# wait for its previous store's read and a barrier) from the value in its
# own layout -- a dot's accumulator is not converted for the store -- and
# stored with tile.tma_store; after that op the program waits for the
# stores' reads. The pointers, mask and layout conversion the store
# had are gone. A host descriptor gets a CUtensorMap argument (box: the
# block's rows x one panel), a descriptor made in the kernel a
# tile.tensormap_create with that box.
# RUN: ln-compile %s --kernel mm_store --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[64,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[64,128],div=1x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel mm_store --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[64,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[64,128],div=1x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=128 -D BK=64 --emit=ptx | FileCheck %s --check-prefix=PTX
# In a loop (a persistent kernel's tiles) the slots are allocated before the
# loop; before a slot is written again the program waits until at most the
# groups committed since its last store are pending (one: two stores per
# iteration). (16 warps: 4 programs per SM with or without the 32 KB.)
# RUN: ln-compile %s --kernel halves --num-warps 16 \
# RUN:   --signature '*fp32:16,*fp32:16,i32:16,i32:16' -D BM=64 -D BN=64 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=LOOP
# Left as stores: a store outside any loop (the program's last store would
# wait for the unit to read its slot: copy_once); before sm_90; rows not proven to end on a 16-byte chunk
# (the TMA unit would write the rest of the chunk: C's column count not
# known divisible, `div=` left out); a block the TMA box cannot take (512
# rows); slots that would cost programs per SM (4
# warps: 16 programs without the 32 KB, 6 with); slots that do not fit
# beside a pipelined loop's (128 x 256 fp16 at BK = 128: two stages of 96 KB
# and 64 KB more).
# RUN: ln-compile %s --kernel mm_store --num-warps 4 --arch sm_80 \
# RUN:   --signature 'tensordesc<fp16[64,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[64,128],div=1x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel mm_store --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[64,64]>,tensordesc<fp16[64,128]>,tensordesc<fp16[64,128]>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel copy_once --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel halves --num-warps 4 \
# RUN:   --signature '*fp32:16,*fp32:16,i32:16,i32:16' -D BM=512 -D BN=16 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel halves --num-warps 4 \
# RUN:   --signature '*fp32:16,*fp32:16,i32:16,i32:16' -D BM=64 -D BN=64 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel persistent --num-warps 8 --num-stages 3 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=128 -D BN=256 -D BK=128 -D PROGRAMS=132 --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# The same persistent kernel at BK = 64 takes them: three stages of 48 KB
# and the 64 KB slot, which lives across the tile loop.
# RUN: ln-compile %s --kernel persistent --num-warps 8 --num-stages 3 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=128 -D BN=256 -D BK=64 -D PROGRAMS=132 --emit=tile-layout | FileCheck %s --check-prefix=PERSIST
# A squeezed block of a 3-D host descriptor (`tl.reshape(acc, [1, BM, BN])
# .to(dtype)` stored into a [1, BM, BN] block, Liger's epilogues): the cast
# is made on the 2-D tile, the store keeps a coordinate per dimension, and
# the TMA store is 3-D with a box of the whole block.
# RUN: ln-compile %s --kernel batched --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[1,64,64],div=16x16x16>,tensordesc<fp16[64,64],div=16x16>,tensordesc<fp16[1,64,64],div=16x16x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=64 --emit=tile | FileCheck %s --check-prefix=BATCHED-TILE
# RUN: ln-compile %s --kernel batched --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[1,64,64],div=16x16x16>,tensordesc<fp16[64,64],div=16x16>,tensordesc<fp16[1,64,64],div=16x16x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=BATCHED
# RUN: ln-compile %s --kernel batched --num-warps 4 \
# RUN:   --signature 'tensordesc<fp16[1,64,64],div=16x16x16>,tensordesc<fp16[64,64],div=16x16>,tensordesc<fp16[1,64,64],div=16x16x16>,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=64 --emit=ptx | FileCheck %s --check-prefix=BATCHED-PTX
import triton
import triton.language as tl


@triton.jit
def mm_store(a_desc, b_desc, c_desc, K, N, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    for n in range(0, N, BN):
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([pid_m * BM, k])
            b = b_desc.load([k, n])
            acc = tl.dot(a, b, acc)
        c_desc.store([pid_m * BM, n], acc.to(tl.float16))

# CHECK-LABEL: func.func @mm_store(
# CHECK-SAME: %arg16: !llvm.ptr {tile.name = "c_desc.tensormap", tile.tensormap = 8 : i64, tile.tma_box = array<i64: 64, 64>, tile.tma_swizzle = 128 : i64}
# CHECK: %[[C:.*]] = tile.local_alloc : <1x64x128xf16>
# CHECK-NEXT: scf.for
# CHECK: scf.for
# CHECK: tile.tma_store_wait 0, %[[C]] : !tile.smem<1x64x128xf16>
# CHECK-NEXT: tile.barrier
# CHECK-NEXT: %[[SLOT:.*]] = arith.constant 0 : i32
# CHECK-NEXT: tile.local_store %{{.*}} into %[[C]][%[[SLOT]]] : tensor<64x128xf16, #mma> -> <1x64x128xf16>
# CHECK-NEXT: tile.tma_store %[[C]][%[[SLOT]]] to %arg16[%{{.*}}, %arg17] : <1x64x128xf16> -> !llvm.ptr
# CHECK-NEXT: scf.yield
# CHECK-NEXT: }
# CHECK-NEXT: tile.tma_store_wait 0, %[[C]] : !tile.smem<1x64x128xf16>
# CHECK-NOT: tile.store
# CHECK-NOT: tile.convert_layout

# The accumulator's pairs go to the slot as 32-bit words; then two panels of
# 128 bytes, each its own bulk tensor store, in one group.
# PTX: st.shared.b32
# PTX: fence.proxy.async.shared::cta;
# PTX: bar.sync
# PTX: @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# PTX-NEXT: @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# PTX-NEXT: @p cp.async.bulk.commit_group;
# PTX: cp.async.bulk.wait_group.read 0;
# PTX-NOT: st.global


@triton.jit
def halves(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for row in range(tl.program_id(0) * BM, M, tl.num_programs(0) * BM):
        for col in range(0, N, 2 * BN):
            y_desc.store([row, col], x_desc.load([row, col]) * 2.0)
            y_desc.store([row, col + BN], x_desc.load([row, col + BN]) + 1.0)

# LOOP-LABEL: func.func @halves(
# LOOP: %[[MAP:.*]] = tile.tensormap_create %{{.*}} {box = array<i64: 64, 32>, offset = 0 : i64, swizzle = 128 : i64}
# LOOP: %[[S0:.*]] = tile.local_alloc : <1x64x64xf32>
# LOOP-NEXT: %[[S1:.*]] = tile.local_alloc : <1x64x64xf32>
# LOOP-NEXT: scf.for
# LOOP: scf.for
# LOOP: tile.tma_store_wait 1, %[[S0]] : !tile.smem<1x64x64xf32>
# LOOP-NEXT: tile.barrier
# LOOP-NEXT: arith.constant 0 : i32
# LOOP-NEXT: tile.local_store
# LOOP-NEXT: tile.tma_store %[[S0]][%{{.*}}] to %[[MAP]]
# LOOP: tile.tma_store_wait 1, %[[S1]] : !tile.smem<1x64x64xf32>
# LOOP-NEXT: tile.barrier
# LOOP-NEXT: arith.constant 0 : i32
# LOOP-NEXT: tile.local_store
# LOOP-NEXT: tile.tma_store %[[S1]][%{{.*}}] to %[[MAP]]
# LOOP: }
# LOOP-NEXT: }
# LOOP-NEXT: tile.tma_store_wait 0, %[[S0]], %[[S1]] : !tile.smem<1x64x64xf32>, !tile.smem<1x64x64xf32>
# LOOP-NOT: tile.store


@triton.jit
def copy_once(x_desc, y_desc):
    y_desc.store([0, 0], x_desc.load([0, 0]))


@triton.jit
def persistent(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               PROGRAMS: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tiles_n = tl.cdiv(N, BN)
    for tile in range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, PROGRAMS):
        off_m = (tile // tiles_n) * BM
        off_n = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([off_n, k]).T, acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))

# PERSIST-LABEL: func.func @persistent(
# PERSIST: tile.local_alloc : <3x128x64xf16, barriers>
# PERSIST: tile.local_alloc : <3x256x64xf16>
# PERSIST: %[[C:.*]] = tile.local_alloc : <1x128x256xf16>
# PERSIST-NEXT: scf.for
# PERSIST: scf.for
# PERSIST: tile.dot_wait
# PERSIST: tile.tma_store_wait 0, %[[C]]
# PERSIST-NEXT: tile.barrier
# PERSIST-NEXT: arith.constant 0 : i32
# PERSIST-NEXT: tile.local_store %{{.*}} into %[[C]][%{{.*}}] : tensor<128x256xf16, #mma> -> <1x128x256xf16>
# PERSIST-NEXT: tile.tma_store %[[C]]
# PERSIST: scf.yield
# PERSIST-NEXT: }
# PERSIST-NEXT: tile.tma_store_wait 0, %[[C]]

# LEFT-NOT: tile.tma_store
# LEFT: tile.store
# LEFT-NOT: tile.tma_store


@triton.jit
def batched(a_desc, b_desc, c_desc, K, BATCHES, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    for b in range(0, BATCHES):
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.reshape(a_desc.load([b, m, k]), [BM, BK])
            acc = tl.dot(a, b_desc.load([k, n]), acc)
        out = tl.reshape(acc, [1, BM, BN])
        c_desc.store([b, m, n], out.to(tl.float16))

# BATCHED-TILE-LABEL: func.func @batched(
# BATCHED-TILE: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32> to tensor<64x64xf16>
# BATCHED-TILE: tile.store %{{.*}}, %[[H]], mask %{{.*}} coords[%{{.*}}, %{{.*}}, %{{.*}}] {descArg = 10 : i64} : tensor<64x64x!tile.ptr<f16>>

# BATCHED-LABEL: func.func @batched(
# BATCHED-SAME: tile.name = "c_desc.tensormap", tile.tensormap = 10 : i64, tile.tma_box = array<i64: 1, 64, 64>, tile.tma_swizzle = 128 : i64
# BATCHED: %[[C:.*]] = tile.local_alloc : <1x64x64xf16>
# BATCHED: tile.local_store %{{.*}} into %[[C]][%{{.*}}] : tensor<64x64xf16, #mma> -> <1x64x64xf16>
# BATCHED-NEXT: tile.tma_store %[[C]][%{{.*}}] to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : <1x64x64xf16> -> !llvm.ptr
# BATCHED-NOT: tile.store

# BATCHED-PTX: @p cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# BATCHED-PTX-NEXT: @p cp.async.bulk.commit_group;
