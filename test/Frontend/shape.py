# Shape builtins to tile IR: trans/permute (tuple, varargs, methods, .T),
# reshape/view/ravel, join/split/interleave, cat, broadcast, full_like.
# RUN: ln-compile %s --kernel shapes --signature '*fp16:16,*i32:16' \
# RUN:   -D BM=16 -D BN=32 --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def shapes(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    t0 = tl.trans(x)
    t1 = tl.permute(x, (1, 0))
    t2 = x.trans(1, 0) + x.permute([1, 0]) + x.T
    same = tl.trans(x, 0, 1)
    x3 = tl.reshape(x, 4, 4, BN)
    p = tl.permute(x3, 2, 0, 1)
    flat = tl.ravel(x)
    v = tl.view(x, (BN, BM))
    r2 = x.reshape([BN, BM], can_reorder=True)
    j = tl.join(x, same)
    a, b = tl.split(j)
    i = tl.interleave(a, b)
    bx, by = tl.broadcast(r[:, None], c[None, :])
    cat = tl.cat(r, r, can_reorder=True)
    f = tl.full_like(x, 3, dtype=tl.int32)
    s0, s1 = tl.split(tl.join(1, 2))
    tl.store(Y + r[:, None] * BN + c[None, :], bx + by + f + s0 + s1)
    tl.store(X + c[:, None] * BM + r[None, :], t0 + t1 + t2 + v + r2)
    tl.store(X + tl.arange(0, BM * BN), flat)
    tl.store(X + tl.arange(0, 2 * BM * BN), tl.ravel(i))
    tl.store(X + tl.arange(0, BM * BN), tl.ravel(p))
    tl.store(Y + tl.arange(0, 2 * BM), cat)

# CHECK-LABEL: func.func @shapes(
# CHECK: %[[X:[^ ]+]] = tile.load %{{.*}} : tensor<16x32x!tile.ptr<f16>>
# CHECK-COUNT-5: tile.trans %[[X]], [1, 0] : tensor<16x32xf16> -> tensor<32x16xf16>
# CHECK-NOT: tile.trans %[[X]], [0, 1]
# CHECK: %[[X3:[^ ]+]] = tile.reshape %[[X]] : tensor<16x32xf16> -> tensor<4x4x32xf16>
# CHECK: tile.trans %[[X3]], [2, 0, 1] : tensor<4x4x32xf16> -> tensor<32x4x4xf16>
# CHECK: tile.reshape %[[X]] : tensor<16x32xf16> -> tensor<512xf16>
# CHECK: tile.reshape %[[X]] can_reorder : tensor<16x32xf16> -> tensor<32x16xf16>
# CHECK: tile.reshape %[[X]] can_reorder : tensor<16x32xf16> -> tensor<32x16xf16>
# CHECK: %[[J:[^ ]+]] = tile.join %[[X]], %[[X]] : tensor<16x32xf16> -> tensor<16x32x2xf16>
# CHECK: %[[A:[^ ]+]], %[[B:[^ ]+]] = tile.split %[[J]] : tensor<16x32x2xf16> -> tensor<16x32xf16>
# CHECK: %[[I:[^ ]+]] = tile.join %[[A]], %[[B]] : tensor<16x32xf16> -> tensor<16x32x2xf16>
# CHECK: tile.reshape %[[I]] : tensor<16x32x2xf16> -> tensor<16x64xf16>
# CHECK: tile.broadcast %{{.*}} : tensor<16x1xi32> -> tensor<16x32xi32>
# CHECK: tile.broadcast %{{.*}} : tensor<1x32xi32> -> tensor<16x32xi32>
# CHECK: tile.cat %{{.*}}, %{{.*}} : tensor<16xi32> -> tensor<32xi32>
# CHECK: arith.constant dense<3> : tensor<16x32xi32>
# CHECK: %[[J2:[^ ]+]] = tile.join %{{.*}}, %{{.*}} : tensor<1xi32> -> tensor<1x2xi32>
# CHECK: %[[J2R:[^ ]+]] = tile.reshape %[[J2]] : tensor<1x2xi32> -> tensor<2xi32>
# CHECK: %[[J2E:[^ ]+]] = tile.expand_dims %[[J2R]], 0 : tensor<2xi32> -> tensor<1x2xi32>
# CHECK: tile.split %[[J2E]] : tensor<1x2xi32> -> tensor<1xi32>
# CHECK: tile.reduce
