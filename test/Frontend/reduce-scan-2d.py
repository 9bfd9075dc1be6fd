# Reductions and scans of 2-D tiles along both axes, keep_dims, and
# through to PTX.
# RUN: ln-compile %s --kernel k2 --signature '*fp32,*i32' -D BM=16 -D BN=32 \
# RUN:   --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k2 --signature '*fp32,*i32' -D BM=16 -D BN=32 \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
import triton
import triton.language as tl


@triton.jit
def mul(a, b):
    return a * b


@triton.jit
def k2(X, I, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    x = tl.load(X + rows * BN + cols)
    tl.store(I + tl.arange(0, BN), tl.argmax(x, 0))
    tl.store(I + tl.arange(0, BM)[:, None], tl.argmin(x, 1, keep_dims=True))
    tl.store(X + tl.arange(0, BM), tl.reduce(x, 1, mul))
    tl.store(X + rows * BN + cols, tl.cumsum(x, 1, reverse=True))
    tl.store(X + rows * BN + cols, tl.associative_scan(x, 0, mul))

# CHECK-LABEL: func.func @k2(
# The row index, broadcast over columns, for argmax along axis 0.
# CHECK: tile.arange 0 to 16 : tensor<16xi32>
# CHECK: tile.expand_dims %{{.*}}, 1 : tensor<16xi32> -> tensor<16x1xi32>
# CHECK: tile.broadcast %{{.*}} : tensor<16x1xi32> -> tensor<16x32xi32>
# CHECK: tile.reduce(%{{.*}}, %{{.*}}) axis = 0 : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
# CHECK: tile.arange 0 to 32 : tensor<32xi32>
# CHECK: tile.expand_dims %{{.*}}, 0 : tensor<32xi32> -> tensor<1x32xi32>
# CHECK: tile.reduce(%{{.*}}, %{{.*}}) axis = 1 : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16xf32>, tensor<16xi32>)
# CHECK: tile.expand_dims %{{.*}}, 1 : tensor<16xi32> -> tensor<16x1xi32>
# CHECK: tile.reduce(%{{.*}}) axis = 1 : (tensor<16x32xf32>) -> tensor<16xf32>
# CHECK: tile.scan(%{{.*}}) axis = 1 reverse : (tensor<16x32xf32>) -> tensor<16x32xf32>
# CHECK: tile.scan(%{{.*}}) axis = 0 : (tensor<16x32xf32>) -> tensor<16x32xf32>

# PTX: .entry k2(
# PTX: shfl.sync.bfly.b32
# PTX: bar.sync
# PTX: ret;
