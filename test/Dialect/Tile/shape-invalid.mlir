// RUN: kiln-opt %s --split-input-file --verify-diagnostics

func.func @trans_rank(%x: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.trans' op order has 3 entries for a rank-2 tensor}}
  %t = tile.trans %x, [1, 0, 2] : tensor<32x64xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @trans_not_permutation(%x: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %t = tile.trans %x, [1, 1] : tensor<32x64xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @trans_shape(%x: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.trans' op expected result shape [64, 32], got [32, 64]}}
  %t = tile.trans %x, [1, 0] : tensor<32x64xf16> -> tensor<32x64xf16>
  return
}

// -----

func.func @trans_element_type(%x: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.trans' op element type must be preserved, got 'f16' and 'f32'}}
  %t = tile.trans %x, [1, 0] : tensor<32x64xf16> -> tensor<64x32xf32>
  return
}

// -----

func.func @reshape_numel(%x: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape [32, 64] (2048 elements) to [64] (64 elements)}}
  %r = tile.reshape %x : tensor<32x64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @reshape_power_of_two(%x: tensor<6x8xf16>) {
  // expected-error @+1 {{'tile.reshape' op result dimensions must be powers of two, got [3, 16]}}
  %r = tile.reshape %x : tensor<6x8xf16> -> tensor<3x16xf16>
  return
}

// -----

func.func @join_shape(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{'tile.join' op expected result shape [4, 8, 2], got [4, 16]}}
  %j = tile.join %a, %a : tensor<4x8xi32> -> tensor<4x16xi32>
  return
}

// -----

func.func @split_minor(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'tile.split' op operand must have rank 2 or more and a last dimension of size 2, got [4, 8]}}
  %l, %h = tile.split %x : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @split_rank1(%x: tensor<2xi32>) {
  // expected-error @+1 {{'tile.split' op operand must have rank 2 or more and a last dimension of size 2, got [2]}}
  %l, %h = tile.split %x : tensor<2xi32> -> tensor<1xi32>
  return
}

// -----

func.func @cat_shape(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.cat' op expected result shape [32], got [16]}}
  %c = tile.cat %a, %a : tensor<16xf32> -> tensor<16xf32>
  return
}
