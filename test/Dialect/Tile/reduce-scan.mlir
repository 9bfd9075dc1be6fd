// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of tile.reduce / tile.scan / tile.yield.

// CHECK-LABEL: func.func @argmax
// CHECK: %{{.*}}:2 = tile.reduce(%{{.*}}, %{{.*}}) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[AI:.*]]: i32, %[[B:.*]]: f32, %[[BI:.*]]: i32):
// CHECK: arith.cmpf ogt, %[[A]], %[[B]] : f32
// CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
func.func @argmax(%x: tensor<128xf32>, %idx: tensor<128xi32>) -> (f32, i32) {
  %m:2 = tile.reduce(%x, %idx) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tile.yield %v, %vi : f32, i32
  }
  return %m#0, %m#1 : f32, i32
}

// CHECK-LABEL: func.func @rows
// CHECK: tile.reduce(%{{.*}}) axis = 1 : (tensor<32x64xi32>) -> tensor<32xi32>
func.func @rows(%x: tensor<32x64xi32>) -> tensor<32xi32> {
  %s = tile.reduce(%x) axis = 1 : (tensor<32x64xi32>) -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %r = arith.xori %a, %b : i32
    tile.yield %r : i32
  }
  return %s : tensor<32xi32>
}

// CHECK-LABEL: func.func @scans
// CHECK: tile.scan(%{{.*}}) axis = 1 reverse : (tensor<32x64xi32>) -> tensor<32x64xi32>
// CHECK: tile.scan(%{{.*}}) axis = 0 : (tensor<32x64xi32>) -> tensor<32x64xi32>
func.func @scans(%x: tensor<32x64xi32>) -> (tensor<32x64xi32>, tensor<32x64xi32>) {
  %r = tile.scan(%x) axis = 1 reverse : (tensor<32x64xi32>) -> tensor<32x64xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.yield %s : i32
  }
  %f = tile.scan(%x) axis = 0 : (tensor<32x64xi32>) -> tensor<32x64xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.muli %a, %b : i32
    tile.yield %s : i32
  }
  return %r, %f : tensor<32x64xi32>, tensor<32x64xi32>
}
