// RUN: kiln-opt %s --split-input-file --tile-pad-small-dot | FileCheck %s

// M = 4, N = 8: A's rows and B's columns repeated to 16, the accumulator
// both ways; the 16 x 16 product's first 4 rows (copy 0 of 4) and first 8
// columns (copy 0 of 2) are the result.
// CHECK-LABEL: func.func @small
// CHECK-SAME: (%[[A:.*]]: tensor<4x32xf16>, %[[B:.*]]: tensor<32x8xf16>, %[[C:.*]]: tensor<4x8xf32>)
// CHECK: %[[A1:.*]] = tile.reshape %[[A]] : tensor<4x32xf16> -> tensor<1x4x32xf16>
// CHECK: %[[A4:.*]] = tile.broadcast %[[A1]] : tensor<1x4x32xf16> -> tensor<4x4x32xf16>
// CHECK: %[[AP:.*]] = tile.reshape %[[A4]] : tensor<4x4x32xf16> -> tensor<16x32xf16>
// CHECK: %[[B1:.*]] = tile.reshape %[[B]] : tensor<32x8xf16> -> tensor<32x1x8xf16>
// CHECK: %[[B2:.*]] = tile.broadcast %[[B1]] : tensor<32x1x8xf16> -> tensor<32x2x8xf16>
// CHECK: %[[BP:.*]] = tile.reshape %[[B2]] : tensor<32x2x8xf16> -> tensor<32x16xf16>
// CHECK: tile.broadcast {{.*}} : tensor<1x4x8xf32> -> tensor<4x4x8xf32>
// CHECK: %[[CP:.*]] = tile.reshape {{.*}} : tensor<16x2x8xf32> -> tensor<16x16xf32>
// CHECK: %[[D:.*]] = tile.dot %[[AP]], %[[BP]], %[[CP]] {inputPrecision = #tile<input_precision ieee>} : tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>
// CHECK: %[[DR:.*]] = tile.reshape %[[D]] : tensor<16x16xf32> -> tensor<4x4x16xf32>
// CHECK: %[[DT:.*]] = tile.trans %[[DR]], [1, 2, 0] : tensor<4x4x16xf32> -> tensor<4x16x4xf32>
// CHECK: tile.reshape %[[DT]] : tensor<4x16x4xf32> -> tensor<4x16x2x2xf32>
// CHECK: %[[E0:.*]], %{{.*}} = tile.split
// CHECK: tile.reshape %[[E0]] : tensor<4x16x2xf32> -> tensor<4x16x1x2xf32>
// CHECK: %[[E1:.*]], %{{.*}} = tile.split
// CHECK: %[[ROWS:.*]] = tile.reshape %[[E1]] : tensor<4x16x1xf32> -> tensor<4x16xf32>
// CHECK: %[[CR:.*]] = tile.reshape %[[ROWS]] : tensor<4x16xf32> -> tensor<4x2x8xf32>
// CHECK: %[[CT:.*]] = tile.trans %[[CR]], [0, 2, 1] : tensor<4x2x8xf32> -> tensor<4x8x2xf32>
// CHECK: %[[F0:.*]], %{{.*}} = tile.split
// CHECK: %[[R:.*]] = tile.reshape %[[F0]] : tensor<4x8x1xf32> -> tensor<4x8xf32>
// CHECK: tile.print "d" %[[R]]
func.func @small(%a: tensor<4x32xf16>, %b: tensor<32x8xf16>, %c: tensor<4x8xf32>) {
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<4x32xf16>, tensor<32x8xf16> -> tensor<4x8xf32>
  tile.print "d" %d : tensor<4x8xf32>
  return
}

// -----

// 16 x 16 and larger: unchanged.
// CHECK-LABEL: func.func @tile
// CHECK-NEXT: tile.dot %arg0, %arg1, %arg2 : tensor<16x16xf16>, tensor<16x32xf16> -> tensor<16x32xf32>
// CHECK-NEXT: return
func.func @tile(%a: tensor<16x16xf16>, %b: tensor<16x32xf16>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x32xf16> -> tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}
