# tl.philox_impl (rounds with an explicit key), tl.softmax (Triton's library
# composition) and tl.swizzle2d on constexprs (folded).
# RUN: ln-compile %s --kernel philox_impl --signature '*u32,u32,u32' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=PHILOX
# RUN: ln-compile %s --kernel softmax --signature '*fp32' -D BM=4 -D BN=32 --emit=tile \
# RUN:   | FileCheck %s --check-prefix=SOFTMAX
# RUN: ln-compile %s --kernel softmax --signature '*fp32' -D BM=4 -D BN=32 --emit=ptx \
# RUN:   | FileCheck %s --check-prefix=SOFTMAX-PTX
# RUN: ln-compile %s --kernel swizzle --signature '*i32' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=SWIZZLE
import triton
import triton.language as tl


@triton.jit
def philox_impl(O, c, k):
    a, b, d, e = tl.philox_impl(c, c, c, c, k, k, n_rounds=1)
    tl.store(O, a ^ b ^ d ^ e)

# One round: c0 = umulhi(B, c2) ^ c1 ^ k0, c2 = umulhi(A, c0) ^ c3 ^ k1,
# c1 = B * c2, c3 = A * c0 with the 32-bit constants, keys not derived from
# a seed (no 64-bit casts).
# PHILOX-LABEL: func.func @philox_impl(
# PHILOX-SAME: %[[C:[^:]+]]: i32 {tile.name = "c"}, %[[K:[^:]+]]: i32 {tile.name = "k"})
# PHILOX-NOT: i64
# PHILOX: %[[A:[^ ]+]] = arith.constant -766435501 : i32
# PHILOX: %[[B:[^ ]+]] = arith.constant -845247145 : i32
# PHILOX: %{{.*}}, %[[HB:[^ ]+]] = arith.mului_extended %[[B]], %[[C]] : i32
# PHILOX: %{{.*}}, %[[HA:[^ ]+]] = arith.mului_extended %[[A]], %[[C]] : i32
# PHILOX: %[[X:[^ ]+]] = arith.xori %[[HB]], %[[C]] : i32
# PHILOX: arith.xori %[[X]], %[[K]] : i32
# PHILOX: %[[Y:[^ ]+]] = arith.xori %[[HA]], %[[C]] : i32
# PHILOX: arith.xori %[[Y]], %[[K]] : i32
# PHILOX: arith.muli %[[B]], %[[C]] : i32
# PHILOX: arith.muli %[[A]], %[[C]] : i32


@triton.jit
def softmax(X, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    tl.store(X + offs, tl.softmax(x, dim=1, keep_dims=True))
    tl.store(X + offs, x.softmax(ieee_rounding=True))

# dim=1, keep_dims=True: max and sum along 1 kept as [4, 1], broadcast back.
# SOFTMAX-LABEL: func.func @softmax(
# SOFTMAX: %[[M:[^ ]+]] = tile.max %[[X:[^ ]+]], 1 : tensor<4x32xf32> -> tensor<4xf32>
# SOFTMAX: %[[MK:[^ ]+]] = tile.expand_dims %[[M]], 1 : tensor<4xf32> -> tensor<4x1xf32>
# SOFTMAX: %[[MB:[^ ]+]] = tile.broadcast %[[MK]] : tensor<4x1xf32> -> tensor<4x32xf32>
# SOFTMAX: %[[Z:[^ ]+]] = arith.subf %[[X]], %[[MB]] : tensor<4x32xf32>
# SOFTMAX: %[[E:[^ ]+]] = math.exp %[[Z]] : tensor<4x32xf32>
# SOFTMAX: %[[S:[^ ]+]] = tile.sum %[[E]], 1 : tensor<4x32xf32> -> tensor<4xf32>
# SOFTMAX: arith.divf %[[E]], %{{.*}} : tensor<4x32xf32>
# dim=None is dim 0 without keep_dims: [32] results broadcast along rows.
# SOFTMAX: tile.max %{{.*}}, 0 : tensor<4x32xf32> -> tensor<32xf32>
# SOFTMAX: tile.sum %{{.*}}, 0 : tensor<4x32xf32> -> tensor<32xf32>
# SOFTMAX: arith.divf
# SOFTMAX-PTX: div.full.f32


@triton.jit
def swizzle(O):
    i, j = tl.swizzle2d(5, 3, 8, 4, 3)
    tl.store(O + i, j)

# ij = 23, size_gj = 12, group 1, off_i = 3, size_g = min(8 - 3, 3) = 3,
# ij % 12 = 11: new_i = 3 + 11 % 3 = 5, new_j = 11 // 3 = 3.
# SWIZZLE-LABEL: func.func @swizzle(
# SWIZZLE: %[[FIVE:[^ ]+]] = arith.constant 5 : i32
# SWIZZLE: tile.addptr %{{.*}}, %[[FIVE]]
# SWIZZLE: %[[THREE:[^ ]+]] = arith.constant 3 : i32
# SWIZZLE: tile.store %{{.*}}, %[[THREE]]
