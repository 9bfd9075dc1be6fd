// RUN: kiln-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @splat_of_constant
// CHECK: %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<128xf32>
// CHECK-NOT: tile.splat
// CHECK: return %[[C]]
func.func @splat_of_constant() -> tensor<128xf32> {
  %c = arith.constant 1.5 : f32
  %s = tile.splat %c : f32 -> tensor<128xf32>
  return %s : tensor<128xf32>
}

// CHECK-LABEL: func.func @broadcast_same_shape
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xi32>)
// CHECK-NEXT: return %[[A]]
func.func @broadcast_same_shape(%a: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %b = tile.broadcast %a : tensor<4x8xi32> -> tensor<4x8xi32>
  return %b : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @broadcast_of_splat_constant
// CHECK: arith.constant dense<7> : tensor<4x8xi32>
// CHECK-NOT: tile.broadcast
func.func @broadcast_of_splat_constant() -> tensor<4x8xi32> {
  %c = arith.constant dense<7> : tensor<1x8xi32>
  %b = tile.broadcast %c : tensor<1x8xi32> -> tensor<4x8xi32>
  return %b : tensor<4x8xi32>
}

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[Q:.*]]: tensor<16x!tile.ptr<f32>>)
// CHECK-NOT: tile.addptr
// CHECK: return %[[P]], %[[Q]]
func.func @addptr_zero(%p: !tile.ptr<f32>, %q: tensor<16x!tile.ptr<f32>>) -> (!tile.ptr<f32>, tensor<16x!tile.ptr<f32>>) {
  %z = arith.constant 0 : i32
  %zs = arith.constant dense<0> : tensor<16xi32>
  %a = tile.addptr %p, %z : !tile.ptr<f32>, i32
  %b = tile.addptr %q, %zs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  return %a, %b : !tile.ptr<f32>, tensor<16x!tile.ptr<f32>>
}

// CHECK-LABEL: func.func @addptr_nonzero_kept
// CHECK: tile.addptr
func.func @addptr_nonzero_kept(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %o = arith.constant 3 : i32
  %a = tile.addptr %p, %o : !tile.ptr<f32>, i32
  return %a : !tile.ptr<f32>
}

#l0 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: func.func @convert_same_layout
// CHECK-NOT: tile.convert_layout
func.func @convert_same_layout(%a: tensor<128xf32, #l0>) -> tensor<128xf32, #l0> {
  %b = tile.convert_layout %a : tensor<128xf32, #l0> -> tensor<128xf32, #l0>
  return %b : tensor<128xf32, #l0>
}
