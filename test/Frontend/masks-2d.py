# 2-D tiles: masks combined from [:, None] and [None, :], offsets broadcast to
# [BM, BN], reductions along axis 1 (with keep_dims) and axis 0, a 1-D tensor
# broadcast against a 2-D one (rank promotion), and a whole-tile reduction.
# RUN: ln-compile %s --kernel masks2d --signature '*fp32,*fp32,*fp32,i32,i32,i32' \
# RUN:   -D BM=16 -D BN=64 --num-warps 2 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel where2d --signature '*fp32,i32' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=WHERE
import triton
import triton.language as tl


@triton.jit
def masks2d(X, Y, Out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(X + offs, mask=mask, other=-float("inf"))
    row_max = tl.max(x, axis=1)
    e = tl.exp(x - row_max[:, None])
    denom = tl.sum(e, axis=1, keep_dims=True)
    p = e / denom
    b = tl.load(Y + cols, mask=cols < N, other=0.0)
    col = tl.sum(p + b, axis=0)
    total = tl.sum(p)
    tl.store(Out + offs, p, mask=mask)
    tl.store(Out + cols, col + total, mask=cols < N)

# CHECK-LABEL: func.func @masks2d(
# CHECK: %[[ROWS:[^ ]+]] = arith.addi %{{.*}}, %{{.*}} : tensor<16xi32>
# CHECK: %[[COLS:[^ ]+]] = tile.arange 0 to 64 : tensor<64xi32>
# CHECK: %[[R1:[^ ]+]] = tile.expand_dims %[[ROWS]], 1 : tensor<16xi32> -> tensor<16x1xi32>
# CHECK: %[[RM:[^ ]+]] = arith.cmpi slt, %[[R1]], %{{.*}} : tensor<16x1xi32>
# CHECK: %[[C0:[^ ]+]] = tile.expand_dims %[[COLS]], 0 : tensor<64xi32> -> tensor<1x64xi32>
# CHECK: %[[CM:[^ ]+]] = arith.cmpi slt, %[[C0]], %{{.*}} : tensor<1x64xi32>
# CHECK: %[[RMB:[^ ]+]] = tile.broadcast %[[RM]] : tensor<16x1xi1> -> tensor<16x64xi1>
# CHECK: %[[CMB:[^ ]+]] = tile.broadcast %[[CM]] : tensor<1x64xi1> -> tensor<16x64xi1>
# CHECK: %[[MASK:[^ ]+]] = arith.andi %[[RMB]], %[[CMB]] : tensor<16x64xi1>
# CHECK: %[[OFFS:[^ ]+]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x64xi32>
# CHECK: %[[NEGINF:[^ ]+]] = arith.constant dense<0xFF800000> : tensor<16x64xf32>
# CHECK: %[[X:[^ ]+]] = tile.load %{{.*}}, mask %[[MASK]], other %[[NEGINF]] : tensor<16x64x!tile.ptr<f32>>
# CHECK: %[[RMAX:[^ ]+]] = tile.max %[[X]], 1 : tensor<16x64xf32> -> tensor<16xf32>
# CHECK: %[[RMAX2:[^ ]+]] = tile.expand_dims %[[RMAX]], 1 : tensor<16xf32> -> tensor<16x1xf32>
# CHECK: %[[RMAXB:[^ ]+]] = tile.broadcast %[[RMAX2]] : tensor<16x1xf32> -> tensor<16x64xf32>
# CHECK: %[[D:[^ ]+]] = arith.subf %[[X]], %[[RMAXB]] : tensor<16x64xf32>
# CHECK: %[[E:[^ ]+]] = math.exp %[[D]] : tensor<16x64xf32>
# CHECK: %[[S:[^ ]+]] = tile.sum %[[E]], 1 : tensor<16x64xf32> -> tensor<16xf32>
# CHECK: %[[SK:[^ ]+]] = tile.expand_dims %[[S]], 1 : tensor<16xf32> -> tensor<16x1xf32>
# CHECK: %[[SB:[^ ]+]] = tile.broadcast %[[SK]] : tensor<16x1xf32> -> tensor<16x64xf32>
# CHECK: %[[P:[^ ]+]] = arith.divf %[[E]], %[[SB]] : tensor<16x64xf32>
# CHECK: %[[B:[^ ]+]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<64x!tile.ptr<f32>>
# The 1-D bias gets a leading dimension before broadcasting.
# CHECK: %[[B1:[^ ]+]] = tile.expand_dims %[[B]], 0 : tensor<64xf32> -> tensor<1x64xf32>
# CHECK: %[[BB:[^ ]+]] = tile.broadcast %[[B1]] : tensor<1x64xf32> -> tensor<16x64xf32>
# CHECK: %[[PB:[^ ]+]] = arith.addf %[[P]], %[[BB]] : tensor<16x64xf32>
# CHECK: %[[COL:[^ ]+]] = tile.sum %[[PB]], 0 : tensor<16x64xf32> -> tensor<64xf32>
# axis=None reduces every dimension, the last one first.
# CHECK: %[[T1:[^ ]+]] = tile.sum %[[P]], 1 : tensor<16x64xf32> -> tensor<16xf32>
# CHECK: %[[T0:[^ ]+]] = tile.sum %[[T1]], 0 : tensor<16xf32> -> f32
# CHECK: tile.store %{{.*}}, %[[P]], mask %[[MASK]] : tensor<16x64x!tile.ptr<f32>>
# CHECK: %[[TB:[^ ]+]] = tile.splat %[[T0]] : f32 -> tensor<64xf32>
# CHECK: %[[OUT:[^ ]+]] = arith.addf %[[COL]], %[[TB]] : tensor<64xf32>
# CHECK: tile.store %{{.*}}, %[[OUT]], mask %{{.*}} : tensor<64x!tile.ptr<f32>>


@triton.jit
def where2d(X, N):
    r = tl.arange(0, 32)
    c = tl.arange(0, 128)
    m = (r[:, None] < N) & (c[None, :] < N)
    x = tl.load(X + c)
    y = tl.where(m, x, 0)
    tl.store(X + r[:, None] * 128 + c[None, :], y)

# A 2-D condition broadcasts a 1-D value and a constant to its shape.
# WHERE: %[[M:[^ ]+]] = arith.andi %{{.*}}, %{{.*}} : tensor<32x128xi1>
# WHERE: %[[X:[^ ]+]] = tile.load %{{.*}} : tensor<128x!tile.ptr<f32>>
# WHERE: %[[X1:[^ ]+]] = tile.expand_dims %[[X]], 0 : tensor<128xf32> -> tensor<1x128xf32>
# WHERE: %[[XB:[^ ]+]] = tile.broadcast %[[X1]] : tensor<1x128xf32> -> tensor<32x128xf32>
# WHERE: %[[Y:[^ ]+]] = tile.broadcast %{{.*}} : tensor<1x128xf32> -> tensor<32x128xf32>
# WHERE: tile.where %[[M]], %[[XB]], %[[Y]] : tensor<32x128xi1>, tensor<32x128xf32>
