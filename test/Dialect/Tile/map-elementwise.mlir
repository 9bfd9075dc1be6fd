// RUN: kiln-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// A round trip through the printer and the verifier.
// CHECK-LABEL: func.func @selu
// CHECK: tile.map_elementwise(%{{.*}}) pack = 1 : (tensor<128xf32>) -> tensor<128xf32> {
// CHECK: scf.if
// CHECK: tile.yield %{{.*}} : f32
func.func @selu(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = tile.map_elementwise(%x) pack = 1 : (tensor<128xf32>) -> tensor<128xf32> {
  ^bb0(%v: f32):
    %c0 = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %v, %c0 : f32
    %r = scf.if %pos -> (f32) {
      scf.yield %v : f32
    } else {
      %e = math.exp %v : f32
      scf.yield %e : f32
    }
    tile.yield %r : f32
  }
  return %y : tensor<128xf32>
}

// -----

func.func @wrong_arity(%x: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'tile.map_elementwise' op body takes 1 arguments, expected 2 (pack scalars per operand)}}
  %y = tile.map_elementwise(%x) pack = 2 : (tensor<128xf32>) -> tensor<128xf32> {
  ^bb0(%v: f32):
    tile.yield %v : f32
  }
  return %y : tensor<128xf32>
}

// -----

func.func @wrong_yield_type(%x: tensor<128xf32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tile.map_elementwise' op body yields 'f32' as value 0, expected the element type of result 0}}
  %y = tile.map_elementwise(%x) pack = 1 : (tensor<128xf32>) -> tensor<128xi32> {
  ^bb0(%v: f32):
    tile.yield %v : f32
  }
  return %y : tensor<128xi32>
}

// -----

func.func @shapes(%x: tensor<128xf32>, %z: tensor<64xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'tile.map_elementwise' op operands and results must have one shape}}
  %y = tile.map_elementwise(%x, %z) pack = 1 : (tensor<128xf32>, tensor<64xf32>) -> tensor<128xf32> {
  ^bb0(%v: f32, %w: f32):
    tile.yield %v : f32
  }
  return %y : tensor<128xf32>
}
