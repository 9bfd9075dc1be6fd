// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of the shape ops.
// CHECK-LABEL: func.func @shape_ops
func.func @shape_ops(%x: tensor<32x64xf16>, %a: tensor<4x8xi32>, %p: tensor<16x!tile.ptr<f32>>) {
  // CHECK: tile.trans %{{.*}}, [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %t = tile.trans %x, [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  // CHECK: tile.reshape %{{.*}} : tensor<32x64xf16> -> tensor<2048xf16>
  %r = tile.reshape %x : tensor<32x64xf16> -> tensor<2048xf16>
  // CHECK: tile.reshape %{{.*}} can_reorder : tensor<32x64xf16> -> tensor<64x32xf16>
  %v = tile.reshape %x can_reorder : tensor<32x64xf16> -> tensor<64x32xf16>
  // CHECK: %[[J:.*]] = tile.join %{{.*}}, %{{.*}} : tensor<4x8xi32> -> tensor<4x8x2xi32>
  %j = tile.join %a, %a : tensor<4x8xi32> -> tensor<4x8x2xi32>
  // CHECK: tile.split %[[J]] : tensor<4x8x2xi32> -> tensor<4x8xi32>
  %l, %h = tile.split %j : tensor<4x8x2xi32> -> tensor<4x8xi32>
  // CHECK: tile.cat %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>> -> tensor<32x!tile.ptr<f32>>
  %c = tile.cat %p, %p : tensor<16x!tile.ptr<f32>> -> tensor<32x!tile.ptr<f32>>
  // CHECK: tile.trans %{{.*}}, [2, 0, 1] : tensor<4x8x2xi32> -> tensor<2x4x8xi32>
  %t3 = tile.trans %j, [2, 0, 1] : tensor<4x8x2xi32> -> tensor<2x4x8xi32>
  return
}
