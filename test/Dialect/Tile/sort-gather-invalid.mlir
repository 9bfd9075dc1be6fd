// RUN: kiln-opt %s --split-input-file --verify-diagnostics

func.func @sort_not_pow2(%x: tensor<4x24xf32>) {
  // expected-error @+1 {{'tile.sort' op sorted dimension has size 24, which is not a power of two}}
  %0 = tile.sort %x : tensor<4x24xf32>
  return
}

// -----

func.func @sort_unsigned_float(%x: tensor<32xf32>) {
  // expected-error @+1 {{'tile.sort' op `unsigned` needs integer elements}}
  %0 = tile.sort %x unsigned : tensor<32xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<4x32xf32>, %i: tensor<32xi32>) {
  // expected-error @+1 {{'tile.gather' op source and index must have the same rank, got 2 and 1}}
  %0 = tile.gather %x, %i, 0 : tensor<4x32xf32>, tensor<32xi32> -> tensor<32xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<4x32xf32>, %i: tensor<4x32xi32>) {
  // expected-error @+1 {{'tile.gather' op axis 2 is out of range for rank 2}}
  %0 = tile.gather %x, %i, 2 : tensor<4x32xf32>, tensor<4x32xi32> -> tensor<4x32xf32>
  return
}

// -----

func.func @gather_shape(%x: tensor<4x32xf32>, %i: tensor<8x16xi32>) {
  // expected-error @+1 {{'tile.gather' op index shape [8, 16] must match source shape [4, 32] off axis 1}}
  %0 = tile.gather %x, %i, 1 : tensor<4x32xf32>, tensor<8x16xi32> -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<4x32xf32>, %i: tensor<4x16xi32>) {
  // expected-error @+1 {{'tile.gather' op result must have the index's shape and the source's element type, got 'tensor<4x16xf16>'}}
  %0 = tile.gather %x, %i, 1 : tensor<4x32xf32>, tensor<4x16xi32> -> tensor<4x16xf16>
  return
}

// -----

func.func @histogram_2d(%x: tensor<4x32xi32>) {
  // expected-error @+1 {{'tile.histogram' op expects a 1-D source, got rank 2}}
  %0 = tile.histogram %x : tensor<4x32xi32> -> tensor<16xi32>
  return
}

// -----

func.func @histogram_bins(%x: tensor<32xi32>) {
  // expected-error @+1 {{'tile.histogram' op result must be a 1-D tensor whose size (the number of bins) is a power of two, got 'tensor<12xi32>'}}
  %0 = tile.histogram %x : tensor<32xi32> -> tensor<12xi32>
  return
}

// -----

func.func @histogram_mask(%x: tensor<32xi32>, %m: tensor<16xi1>) {
  // expected-error @+1 {{'tile.histogram' op mask shape [16] does not match source shape [32]}}
  %0 = tile.histogram %x mask %m : tensor<16xi1> : tensor<32xi32> -> tensor<16xi32>
  return
}
