// RUN: kiln-opt %s --split-input-file --tile-narrow-before-shape-ops | FileCheck %s

// Tutorial 09's EPILOGUE_SUBTILE: reshape, permute and split of the fp32
// accumulator, each half converted to fp8: one conversion of the whole
// before the chain, which then moves fp8.
// CHECK-LABEL: func.func @subtile(
// CHECK-SAME: %[[ACC:.*]]: tensor<128x256xf32>
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[ACC]] : tensor<128x256xf32> to tensor<128x256xf8E4M3FN>
// CHECK-NEXT: %[[R:.*]] = tile.reshape %[[N]] : tensor<128x256xf8E4M3FN> -> tensor<128x2x128xf8E4M3FN>
// CHECK-NEXT: %[[T:.*]] = tile.trans %[[R]], [0, 2, 1] : tensor<128x2x128xf8E4M3FN> -> tensor<128x128x2xf8E4M3FN>
// CHECK-NEXT: %[[L:.*]], %[[H:.*]] = tile.split %[[T]] : tensor<128x128x2xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
// CHECK-NEXT: return %[[L]], %[[H]]
func.func @subtile(%acc: tensor<128x256xf32>) -> (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
  %r = tile.reshape %acc : tensor<128x256xf32> -> tensor<128x2x128xf32>
  %t = tile.trans %r, [0, 2, 1] : tensor<128x2x128xf32> -> tensor<128x128x2xf32>
  %lhs, %rhs = tile.split %t : tensor<128x128x2xf32> -> tensor<128x128xf32>
  %c0 = arith.truncf %lhs : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
  %c1 = arith.truncf %rhs : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
  return %c0, %c1 : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
}

// -----

// Integer narrowing moves too; the cast keeps its attributes.
// CHECK-LABEL: func.func @ints(
// CHECK-NEXT: arith.trunci %{{.*}} overflow<nsw> : tensor<32x64xi32> to tensor<32x64xi8>
// CHECK-NEXT: tile.trans %{{.*}}, [1, 0] : tensor<32x64xi8> -> tensor<64x32xi8>
func.func @ints(%x: tensor<32x64xi32>) -> tensor<64x32xi8> {
  %t = tile.trans %x, [1, 0] : tensor<32x64xi32> -> tensor<64x32xi32>
  %n = arith.trunci %t overflow<nsw> : tensor<64x32xi32> to tensor<64x32xi8>
  return %n : tensor<64x32xi8>
}

// -----

// Left alone: halves converted differently, a wide result used elsewhere, a
// widening cast, and a cast under an scf.if (it may never run).
// CHECK-LABEL: func.func @kept(
// CHECK: tile.split %{{.*}} : tensor<16x16x2xf32> -> tensor<16x16xf32>
// CHECK: tile.trans %{{.*}}, [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK: tile.reshape %{{.*}} : tensor<16x32xf16> -> tensor<512xf16>
// CHECK: tile.trans %{{.*}}, [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
// CHECK: scf.if
// CHECK-NEXT: arith.truncf %{{.*}} : tensor<16x32xf32> to tensor<16x32xf16>
func.func @kept(%x: tensor<16x16x2xf32>, %y: tensor<16x32xf32>, %z: tensor<16x32xf16>, %w: tensor<32x16xf32>, %p: i1)
    -> (tensor<16x16xf16>, tensor<16x16xbf16>, tensor<32x16xf16>, tensor<32x16xf32>, tensor<512xf32>, tensor<16x32xf16>) {
  %lhs, %rhs = tile.split %x : tensor<16x16x2xf32> -> tensor<16x16xf32>
  %a = arith.truncf %lhs : tensor<16x16xf32> to tensor<16x16xf16>
  %b = arith.truncf %rhs : tensor<16x16xf32> to tensor<16x16xbf16>
  %t = tile.trans %y, [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  %c = arith.truncf %t : tensor<32x16xf32> to tensor<32x16xf16>
  %r = tile.reshape %z : tensor<16x32xf16> -> tensor<512xf16>
  %e = arith.extf %r : tensor<512xf16> to tensor<512xf32>
  %u = tile.trans %w, [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
  %f = scf.if %p -> tensor<16x32xf16> {
    %n = arith.truncf %u : tensor<16x32xf32> to tensor<16x32xf16>
    scf.yield %n : tensor<16x32xf16>
  } else {
    %n = arith.truncf %u : tensor<16x32xf32> to tensor<16x32xf16>
    scf.yield %n : tensor<16x32xf16>
  }
  return %a, %b, %c, %t, %e, %f : tensor<16x16xf16>, tensor<16x16xbf16>, tensor<32x16xf16>, tensor<32x16xf32>, tensor<512xf32>, tensor<16x32xf16>
}
