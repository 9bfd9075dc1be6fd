// RUN: kiln-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{!tile.smem needs 3 dimensions (slots x rows x columns), got 2}}
func.func @rank(%b: !tile.smem<64x32xf16>) {
  return
}

// -----

// expected-error @+1 {{!tile.smem holds f16, bf16, f32, fp8 or i8 (its swizzle is for 16-bit units), got 'i16'}}
func.func @elem(%b: !tile.smem<2x64x32xi16>) {
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

// -----

func.func @tma_copy_needs_barriers(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op needs a buffer with mbarriers (`!tile.smem<..., barriers>`), got '!tile.smem<3x64x64xf16>'}}
  tile.tma_copy %m[%c, %c] into %b[%s] if %p : !llvm.ptr -> !tile.smem<3x64x64xf16>
  return
}

// -----

func.func @tma_copy_arrive_needs_barriers(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16>, %o: !tile.smem<3x64x64xf16>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op needs a buffer with mbarriers (`!tile.smem<..., barriers>`), got '!tile.smem<3x64x64xf16>'}}
  tile.tma_copy %m[%c, %c] into %b[%s] arrive %o if %p : !llvm.ptr -> !tile.smem<3x64x64xf16>, !tile.smem<3x64x64xf16>
  return
}

// -----

func.func @tma_copy_arrive_own_barriers(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16, barriers>, %o: !tile.smem<3x64x64xf16, barriers>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op arrives on another buffer's mbarriers, so its own buffer has none, got '!tile.smem<3x64x64xf16, barriers>'}}
  tile.tma_copy %m[%c, %c] into %b[%s] arrive %o if %p : !llvm.ptr -> !tile.smem<3x64x64xf16, barriers>, !tile.smem<3x64x64xf16, barriers>
  return
}

// -----

func.func @tma_copy_arrive_slots(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16>, %o: !tile.smem<2x64x64xf16, barriers>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op arrives on a buffer of 2 slots, but fills one of 3}}
  tile.tma_copy %m[%c, %c] into %b[%s] arrive %o if %p : !llvm.ptr -> !tile.smem<3x64x64xf16>, !tile.smem<2x64x64xf16, barriers>
  return
}

// -----

func.func @tma_init_arrivals(%b: !tile.smem<3x64x64xf16, barriers>) {
  // expected-error @+1 {{'tile.tma_init' op arrivals must be 1 to 2^20 - 1, got 0}}
  tile.tma_init %b {arrivals = 0} : !tile.smem<3x64x64xf16, barriers>
  return
}

// -----

func.func @tma_init_arrivals_negative(%b: !tile.smem<3x64x64xf16, barriers>) {
  // expected-error @+1 {{'tile.tma_init' op arrivals must be 1 to 2^20 - 1, got -1}}
  tile.tma_init %b {arrivals = -1} : !tile.smem<3x64x64xf16, barriers>
  return
}

// -----

func.func @tma_copy_transposed(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16, transposed, barriers>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op copies rows as the tensor stores them: the buffer cannot be transposed, got '!tile.smem<3x64x64xf16, transposed, barriers>'}}
  tile.tma_copy %m[%c, %c] into %b[%s] if %p : !llvm.ptr -> !tile.smem<3x64x64xf16, transposed, barriers>
  return
}

// -----

func.func @tma_copy_rank(%m: !llvm.ptr, %b: !tile.smem<3x64x64xf16, barriers>, %s: i32, %c: i32, %p: i1) {
  // expected-error @+1 {{'tile.tma_copy' op takes 2 to 5 coordinates (one per dimension of the descriptor), got 6}}
  tile.tma_copy %m[%c, %c, %c, %c, %c, %c] into %b[%s] if %p : !llvm.ptr -> !tile.smem<3x64x64xf16, barriers>
  return
}

// -----

func.func @tma_wait_needs_barriers(%b: !tile.smem<2x64x64xf16>, %s: i32) {
  // expected-error @+1 {{'tile.tma_wait' op needs a buffer with mbarriers}}
  tile.tma_wait %b[%s], phase %s : !tile.smem<2x64x64xf16>
  return
}

// -----

// expected-error @+1 {{expected `transposed` or `barriers`}}
func.func @smem_keyword(%b: !tile.smem<2x64x64xf16, swizzled>) {
  return
}

// -----

func.func @load_coords_without_desc(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32) {
  // expected-error @+1 {{'tile.load' op `coords` go together with `descArg` or `desc` (a descriptor block's load)}}
  %0 = tile.load %p coords [%c, %c] : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @load_coords_rank(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32) {
  // expected-error @+1 {{'tile.load' op has 1 coords; the result must be a tensor of that rank}}
  %0 = tile.load %p coords [%c] {descArg = 0 : i64} : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @load_both_descriptors(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32, %b: !tile.ptr<f16>, %s: i64) {
  // expected-error @+1 {{'tile.load' op has both `descArg` and `desc`}}
  %0 = tile.load %p coords [%c, %c] desc(%b, %c, %c, %s : !tile.ptr<f16>, i32, i32, i64) {descArg = 0 : i64} : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @load_desc_fields(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32, %b: !tile.ptr<f16>) {
  // expected-error @+1 {{'tile.load' op `desc` must be a base pointer, two i32 shapes and an i64 stride}}
  %0 = tile.load %p coords [%c, %c] desc(%b, %c, %c : !tile.ptr<f16>, i32, i32) : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @load_desc_element(%p: tensor<16x16x!tile.ptr<f16>>, %c: i32, %b: !tile.ptr<f32>, %s: i64) {
  // expected-error @+1 {{'tile.load' op `desc` base must point to the result's element type}}
  %0 = tile.load %p coords [%c, %c] desc(%b, %c, %c, %s : !tile.ptr<f32>, i32, i32, i64) : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @load_desc_nan(%p: tensor<16x16x!tile.ptr<f16>>) {
  // expected-error @+1 {{'tile.load' op `descNan` without `desc`}}
  %0 = tile.load %p {descNan} : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @tensormap_offset(%s: !llvm.ptr, %b: !tile.ptr<f16>, %c: i32, %l: i64) {
  // expected-error @+1 {{'tile.tensormap_create' op offset must be a non-negative multiple of 128 bytes, got 64}}
  %0 = tile.tensormap_create %s, %b, %c, %c, %l {offset = 64 : i64, box = array<i64: 64, 64>, swizzle = 128 : i64} : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
  return
}

// -----

func.func @tensormap_offset_negative(%s: !llvm.ptr, %b: !tile.ptr<f16>, %c: i32, %l: i64) {
  // expected-error @+1 {{'tile.tensormap_create' op offset must be a non-negative multiple of 128 bytes, got -128}}
  %0 = tile.tensormap_create %s, %b, %c, %c, %l {offset = -128 : i64, box = array<i64: 64, 64>, swizzle = 128 : i64} : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
  return
}

// -----

func.func @tensormap_box(%s: !llvm.ptr, %b: !tile.ptr<f16>, %c: i32, %l: i64) {
  // expected-error @+1 {{'tile.tensormap_create' op box must be 2 dimensions of 1 to 256 elements}}
  %0 = tile.tensormap_create %s, %b, %c, %c, %l {offset = 0 : i64, box = array<i64: 512, 64>, swizzle = 128 : i64} : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
  return
}

// -----

func.func @tensormap_swizzle(%s: !llvm.ptr, %b: !tile.ptr<f16>, %c: i32, %l: i64) {
  // expected-error @+1 {{'tile.tensormap_create' op swizzle must be 0, 32, 64 or 128 bytes, got 16}}
  %0 = tile.tensormap_create %s, %b, %c, %c, %l {offset = 0 : i64, box = array<i64: 64, 64>, swizzle = 16 : i64} : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
  return
}

// -----

func.func @store_coords_without_desc(%p: tensor<16x16x!tile.ptr<f16>>, %v: tensor<16x16xf16>, %c: i32) {
  // expected-error @+1 {{'tile.store' op `coords` go together with `descArg` or `desc` (a descriptor block's store)}}
  tile.store %p, %v coords [%c, %c] : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @store_desc_element(%p: tensor<16x16x!tile.ptr<f16>>, %v: tensor<16x16xf16>, %c: i32, %b: !tile.ptr<f32>, %s: i64) {
  // expected-error @+1 {{'tile.store' op `desc` base must point to the value's element type}}
  tile.store %p, %v coords [%c, %c] desc(%b, %c, %c, %s : !tile.ptr<f32>, i32, i32, i64) : tensor<16x16x!tile.ptr<f16>>
  return
}

// -----

func.func @tma_store_barriers(%map: !llvm.ptr, %b: !tile.smem<1x64x64xf16, barriers>, %c: i32) {
  // expected-error @+1 {{'tile.tma_store' op stores a slot as the tensor stores its rows, from a buffer neither transposed nor with mbarriers, got '!tile.smem<1x64x64xf16, barriers>'}}
  tile.tma_store %b[%c] to %map[%c, %c] : !tile.smem<1x64x64xf16, barriers> -> !llvm.ptr
  return
}

// -----

func.func @tma_store_coords(%map: !llvm.ptr, %b: !tile.smem<1x64x64xf16>, %c: i32) {
  // expected-error @+1 {{'tile.tma_store' op takes 2 to 5 coordinates (a descriptor of that rank), got 1}}
  tile.tma_store %b[%c] to %map[%c] : !tile.smem<1x64x64xf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_store_wait_pending() {
  // expected-error @+1 {{'tile.tma_store_wait' op pending must not be negative, got -1}}
  "tile.tma_store_wait"() <{pending = -1 : i64}> : () -> ()
  return
}
