// RUN: kiln-opt %s --split-input-file --tile-sink-trans-into-load | FileCheck %s

// `tl.load(X + r[:, None] * S + c[None, :], mask=r[:, None] < N).T`: the
// load is rewritten at the transposed shape with its address and mask
// computed transposed (x[:, None] <-> x[None, :], splats and broadcasts at
// the new shape), as if the kernel had written the transposed load; no
// tile.trans is left and the untransposed computation is gone.
// CHECK-LABEL: func.func @sunk
// CHECK-NOT: tile.trans
// CHECK-DAG: %[[R:.*]] = tile.expand_dims %{{.*}}, 0 : tensor<32xi32> -> tensor<1x32xi32>
// CHECK-DAG: %[[C:.*]] = tile.expand_dims %{{.*}}, 1 : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: %[[P:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
// CHECK: %[[X:.*]] = tile.load %[[P]], mask %{{.*}}, other %[[ZERO]] {evict = "evict_last"} : tensor<64x32x!tile.ptr<f16>>
// CHECK-NEXT: tile.print "x" %[[X]] : tensor<64x32xf16>
// CHECK-NOT: tensor<32x64
func.func @sunk(%X: !tile.ptr<f16>, %S: i32, %N: i32) {
  %r = tile.arange 0 to 32 : tensor<32xi32>
  %row = tile.expand_dims %r, 1 : tensor<32xi32> -> tensor<32x1xi32>
  %ss = tile.splat %S : i32 -> tensor<32x1xi32>
  %rs = arith.muli %row, %ss : tensor<32x1xi32>
  %rb = tile.broadcast %rs : tensor<32x1xi32> -> tensor<32x64xi32>
  %c = tile.arange 0 to 64 : tensor<64xi32>
  %col = tile.expand_dims %c, 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %col : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %rb, %cb : tensor<32x64xi32>
  %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %p = tile.addptr %p0, %off : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %ns = tile.splat %N : i32 -> tensor<32x1xi32>
  %in = arith.cmpi slt, %row, %ns : tensor<32x1xi32>
  %m = tile.broadcast %in : tensor<32x1xi1> -> tensor<32x64xi1>
  %zero = arith.constant dense<0.0> : tensor<32x64xf16>
  %x = tile.load %p, mask %m, other %zero {evict = "evict_last"} : tensor<32x64x!tile.ptr<f16>>
  %xt = tile.trans %x, [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  tile.print "x" %xt : tensor<64x32xf16>
  return
}

// -----

// A pointer the rewrite cannot see through (a loop argument) is transposed
// as a value, right where it is defined; what it can see through (the mask)
// is still rewritten.
// CHECK-LABEL: func.func @leaf
// CHECK: scf.for %{{.*}} iter_args(%[[P:.*]] = %{{.*}})
// CHECK-NEXT: %[[PT:.*]] = tile.trans %[[P]], [1, 0] : tensor<16x32x!tile.ptr<f32>> -> tensor<32x16x!tile.ptr<f32>>
// CHECK: tile.load %[[PT]], mask %{{.*}} : tensor<32x16x!tile.ptr<f32>>
func.func @leaf(%X: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<16x32x!tile.ptr<f32>>) : i32 {
    %a = tile.arange 0 to 32 : tensor<32xi32>
    %col = tile.expand_dims %a, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %ns = tile.splat %n : i32 -> tensor<1x32xi32>
    %in = arith.cmpi slt, %col, %ns : tensor<1x32xi32>
    %m = tile.broadcast %in : tensor<1x32xi1> -> tensor<16x32xi1>
    %x = tile.load %p, mask %m : tensor<16x32x!tile.ptr<f32>>
    %xt = tile.trans %x, [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
    tile.print "x" %xt : tensor<32x16xf32>
    scf.yield %p : tensor<16x32x!tile.ptr<f32>>
  }
  return
}

// -----

// Left alone: a load with another use besides the transpose, and a
// volatile load (it is read as written, each time).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: tile.trans
func.func @kept(%p: tensor<16x32x!tile.ptr<f32>>) {
  %x = tile.load %p : tensor<16x32x!tile.ptr<f32>>
  %xt = tile.trans %x, [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  tile.print "x" %x, %xt : tensor<16x32xf32>, tensor<32x16xf32>
  %v = tile.load %p {isVolatile} : tensor<16x32x!tile.ptr<f32>>
  %vt = tile.trans %v, [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  tile.print "v" %vt : tensor<32x16xf32>
  return
}
