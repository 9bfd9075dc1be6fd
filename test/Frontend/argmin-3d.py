# tl.argmin / tl.argmax on rank-3 tensors along any axis (Triton's
# test_reduce with 3-D shapes): the element index along the axis is
# broadcast to the input's shape.
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32,*i32,*i32' -D BM=2 \
# RUN:   -D BN=32 -D BK=16 --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(X, Z0, Z1, Z2, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(X + rm[:, None, None] * BN * BK + rn[None, :, None] * BK + rk[None, None, :])
    tl.store(Z0 + rn[:, None] * BK + rk[None, :], tl.argmin(x, axis=0))
    tl.store(Z1 + rm[:, None] * BK + rk[None, :], tl.argmax(x, axis=1))
    tl.store(Z2 + rm[:, None] * BN + rn[None, :], tl.argmin(x, axis=2))

# CHECK-LABEL: func.func @k
# CHECK: tile.load
# CHECK: %[[A0:.*]] = tile.arange 0 to 2 : tensor<2xi32>
# CHECK-NEXT: %[[E0:.*]] = tile.expand_dims %[[A0]], 1 : tensor<2xi32> -> tensor<2x1xi32>
# CHECK-NEXT: %[[F0:.*]] = tile.expand_dims %[[E0]], 2 : tensor<2x1xi32> -> tensor<2x1x1xi32>
# CHECK-NEXT: tile.broadcast %[[F0]] : tensor<2x1x1xi32> -> tensor<2x32x16xi32>
# CHECK: %[[A1:.*]] = tile.arange 0 to 32 : tensor<32xi32>
# CHECK-NEXT: %[[E1:.*]] = tile.expand_dims %[[A1]], 0 : tensor<32xi32> -> tensor<1x32xi32>
# CHECK-NEXT: %[[F1:.*]] = tile.expand_dims %[[E1]], 2 : tensor<1x32xi32> -> tensor<1x32x1xi32>
# CHECK-NEXT: tile.broadcast %[[F1]] : tensor<1x32x1xi32> -> tensor<2x32x16xi32>
# CHECK: %[[A2:.*]] = tile.arange 0 to 16 : tensor<16xi32>
# CHECK-NEXT: %[[E2:.*]] = tile.expand_dims %[[A2]], 0 : tensor<16xi32> -> tensor<1x16xi32>
# CHECK-NEXT: %[[F2:.*]] = tile.expand_dims %[[E2]], 1 : tensor<1x16xi32> -> tensor<1x1x16xi32>
# CHECK-NEXT: tile.broadcast %[[F2]] : tensor<1x1x16xi32> -> tensor<2x32x16xi32>
