# triton.tools.ragged_tma's device functions: load_ragged / store_ragged
# address batch rows through a ragged descriptor (two leading dimensions)
# with the coordinates (2^30, start + size, 2^30 - size + row, ...), then
# drop / add the two unit dimensions; to_ragged_indices returns them.
# RUN: ln-compile %s --kernel k --signature 'tensordesc<fp16[1,1,32,64]>,tensordesc<fp16[1,1,32,64]>,*i32:16' \
# RUN:   -D BM=32 -D BN=64 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel module_style --signature 'tensordesc<fp32[1,1,1,16,64]>,*i32:16' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=DIM1
# RUN: not ln-compile %s --kernel bad_rank --signature 'tensordesc<fp16[32,64]>,i32' \
# RUN:   2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not ln-compile %s --kernel bad_dim --signature 'tensordesc<fp16[1,1,32,64]>,i32' \
# RUN:   2>&1 | FileCheck %s --check-prefix=DIM
# RUN: not ln-compile %s --kernel bad_coords --signature 'tensordesc<fp16[1,1,32,64]>,i32' \
# RUN:   2>&1 | FileCheck %s --check-prefix=COORDS
import triton
import triton.language as tl
from triton.tools.ragged_tma import load_ragged, store_ragged
import triton.tools.ragged_tma as ragged


# CHECK-LABEL: func.func @k(
# CHECK: %[[START:.*]] = tile.load
# CHECK: %[[SIZE:.*]] = arith.subi
# CHECK: %[[END:.*]] = arith.addi %[[START]], %[[SIZE]] : i32
# CHECK: %[[FIRST:.*]] = arith.subi %c1073741824_i32{{.*}}, %[[SIZE]] : i32
# CHECK: arith.addi %[[FIRST]], %{{.*}} : i32
# The block is loaded and stored squeezed to 32 x 64 (the descriptor's unit
# dimensions fold into the base and a scalar bounds test); the reshapes that
# load_ragged / store_ragged write cancel the ones back to the block shape.
# CHECK: %[[T:.*]] = tile.load {{.*}} : tensor<32x64x!tile.ptr<f16>>
# CHECK: %[[T1:.*]] = arith.addf %[[T]], %{{.*}} : tensor<32x64xf16>
# CHECK: tile.store %{{.*}}, %[[T1]], mask %{{.*}} : tensor<32x64x!tile.ptr<f16>>
@triton.jit
def k(X, Y, Offs, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(Offs + b)
    size = tl.load(Offs + b + 1) - start
    for m in range(0, size, BM):
        t = load_ragged(X, start, size, [m, tl.program_id(1) * BN])
        store_ragged(Y, start, size, [m, tl.program_id(1) * BN], t + 1)


# A 3-D tensor ragged along dimension 1 (the module imported whole); the
# indices alone, as a tuple.
# DIM1-LABEL: func.func @module_style(
# The three unit dimensions (coordinates 2^30, 7 + 20 and 2) move the base and
# are bounds-tested as scalars; the ragged row is 2^30 - 20 + 0.
# DIM1: %[[C0:.*]] = arith.extsi %c1073741824_i32 : i32 to i64
# DIM1: %[[S0:.*]] = arith.muli %[[C0]], %arg6 : i64
# DIM1: tile.addptr %arg0, %[[S0]] : !tile.ptr<f32>, i64
# DIM1: arith.cmpi sge, %[[C0]], %{{.*}} : i64
# DIM1: arith.cmpi slt, %[[C0]], %{{.*}} : i64
# DIM1: arith.extsi %c27_i32 : i32 to i64
# DIM1: arith.extsi %c2_i32 : i32 to i64
# DIM1: arith.extsi %c1073741804_i32 : i32 to i64
# DIM1: %[[T:.*]] = tile.load {{.*}} : tensor<16x64x!tile.ptr<f32>>
# DIM1: tile.reshape %[[T]] : tensor<16x64xf32> -> tensor<1x16x64xf32>
@triton.jit
def module_style(X, Out):
    t = ragged.load_ragged(X, 7, 20, [2, 0, 0], ragged_dim=1)
    a, b, c = ragged.to_ragged_indices(7, 20, 3)
    tl.store(Out + tl.arange(0, 64), tl.sum(tl.reshape(t, [16, 64]), axis=0) + a + b + c)


# RANK: ragged-tma.py:[[@LINE+3]]:21: error: `load_ragged`: TMA must be a read-write ragged descriptor (2 coordinates need a rank-4 descriptor, got rank 2)
@triton.jit
def bad_rank(X, n):
    t = load_ragged(X, 0, n, [0, 0])


# DIM: ragged-tma.py:[[@LINE+3]]:49: error: `ragged_dim` of `load_ragged` must be in [0, 2) for 2 coordinates, got 2
@triton.jit
def bad_dim(X, n):
    t = load_ragged(X, 0, n, [0, 0], ragged_dim=2)


# COORDS: ragged-tma.py:[[@LINE+3]]:30: error: `coords` of `load_ragged` must be a list of coordinates, got i32
@triton.jit
def bad_coords(X, n):
    t = load_ragged(X, 0, n, n)
