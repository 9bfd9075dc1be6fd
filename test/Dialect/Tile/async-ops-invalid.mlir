// RUN: kiln-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{!tile.smem needs 3 dimensions (slots x rows x columns), got 2}}
func.func @rank(%b: !tile.smem<64x32xf16>) {
  return
}

// -----

// expected-error @+1 {{!tile.smem holds f16, bf16, f32 or fp8 (its swizzle is for 16-bit units), got 'i8'}}
func.func @elem(%b: !tile.smem<2x64x32xi8>) {
  return
}

// -----

// expected-error @+1 {{!tile.smem rows must be whole 16-byte chunks (a multiple of 8 elements), got 12}}
func.func @row(%b: !tile.smem<2x64x12xf16>) {
  return
}

// -----

// Four f32 fill a chunk.
// expected-error @+1 {{!tile.smem columns (transposed) must be whole 16-byte chunks (a multiple of 4 elements), got 6}}
func.func @rowf32(%b: !tile.smem<2x6x32xf32, transposed>) {
  return
}

// -----

// Sixteen fp8 fill a chunk.
// expected-error @+1 {{!tile.smem rows must be whole 16-byte chunks (a multiple of 16 elements), got 24}}
func.func @rowfp8(%b: !tile.smem<2x64x24xf8E4M3FN>) {
  return
}

// -----

// expected-error @+1 {{!tile.smem dimensions must be positive, got 0}}
func.func @empty(%b: !tile.smem<0x64x32xf16>) {
  return
}

// -----

func.func @copy_shape(%p: tensor<32x32x!tile.ptr<f16>>, %b: !tile.smem<3x64x32xf16>, %s: i32) {
  // expected-error @+1 {{'tile.async_copy' op pointer tensor shape [32, 32] differs from the slot shape [64, 32] of '!tile.smem<3x64x32xf16>'}}
  tile.async_copy %p into %b[%s] : tensor<32x32x!tile.ptr<f16>> -> !tile.smem<3x64x32xf16>
  return
}

// -----

func.func @copy_row(%p: tensor<32x!tile.ptr<f32>>, %b: !tile.smem<3x4x32xf32>, %s: i32) {
  // expected-error @+1 {{'tile.async_copy' op pointer tensor shape [32] differs from the slot shape [4, 32] of '!tile.smem<3x4x32xf32>' (a 1-D tile of N fills a 1 x N slot)}}
  tile.async_copy %p into %b[%s] : tensor<32x!tile.ptr<f32>> -> !tile.smem<3x4x32xf32>
  return
}

// -----

func.func @copy_elem(%p: tensor<64x32x!tile.ptr<bf16>>, %b: !tile.smem<3x64x32xf16>, %s: i32) {
  // expected-error @+1 {{'tile.async_copy' op copies 'tensor<64x32xbf16>' into '!tile.smem<3x64x32xf16>': the element types differ}}
  tile.async_copy %p into %b[%s] : tensor<64x32x!tile.ptr<bf16>> -> !tile.smem<3x64x32xf16>
  return
}

// -----

func.func @copy_mask(%p: tensor<64x32x!tile.ptr<f16>>, %m: tensor<32x32xi1>, %b: !tile.smem<3x64x32xf16>, %s: i32) {
  // expected-error @+1 {{'tile.async_copy' op mask shape differs from the pointer tensor's}}
  tile.async_copy %p, mask %m into %b[%s] : tensor<64x32x!tile.ptr<f16>>, tensor<32x32xi1> -> !tile.smem<3x64x32xf16>
  return
}

// -----

func.func @load_shape(%b: !tile.smem<3x64x32xf16>, %s: i32) {
  // expected-error @+1 {{'tile.local_load' op result shape [32, 64] differs from the slot shape [64, 32] of '!tile.smem<3x64x32xf16>'}}
  %t = tile.local_load %b[%s] : !tile.smem<3x64x32xf16> -> tensor<32x64xf16>
  return
}

// -----

func.func @load_elem(%b: !tile.smem<3x64x32xf16>, %s: i32) {
  // expected-error @+1 {{'tile.local_load' op reads 'bf16' from '!tile.smem<3x64x32xf16>'}}
  %t = tile.local_load %b[%s] : !tile.smem<3x64x32xf16> -> tensor<64x32xbf16>
  return
}

// -----

func.func @store_shape(%b: !tile.smem<3x64x32xf16>, %s: i32, %t: tensor<32x64xf16>) {
  // expected-error @+1 {{'tile.local_store' op value shape [32, 64] differs from the slot shape [64, 32] of '!tile.smem<3x64x32xf16>'}}
  tile.local_store %t into %b[%s] : tensor<32x64xf16> -> !tile.smem<3x64x32xf16>
  return
}

// -----

func.func @store_elem(%b: !tile.smem<3x64x32xf16>, %s: i32, %t: tensor<64x32xbf16>) {
  // expected-error @+1 {{'tile.local_store' op writes 'bf16' into '!tile.smem<3x64x32xf16>'}}
  tile.local_store %t into %b[%s] : tensor<64x32xbf16> -> !tile.smem<3x64x32xf16>
  return
}

// -----

func.func @wait() {
  // expected-error @+1 {{'tile.async_wait' op attribute 'pending' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  tile.async_wait {pending = -1 : i32}
  return
}
