// RUN: kiln-opt %s --split-input-file --verify-diagnostics

func.func @rank(%a: tensor<2x2x16x16xf16>, %c: tensor<2x2x16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be all 2-D or all 3-D (batched), got 'tensor<2x2x16x16xf16>', 'tensor<2x2x16x16xf16>' and 'tensor<2x2x16x16xf32>'}}
  %0 = tile.dot %a, %a, %c : tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16> -> tensor<2x2x16x16xf32>
  return
}

// -----

func.func @mixed_rank(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be all 2-D or all 3-D (batched), got 'tensor<2x16x16xf16>', 'tensor<16x16xf16>' and 'tensor<2x16x16xf32>'}}
  %0 = tile.dot %a, %b, %c : tensor<2x16x16xf16>, tensor<16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

func.func @batch(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expects one power-of-two batch size, got 'tensor<2x16x16xf16>', 'tensor<4x16x16xf16>' and 'tensor<2x16x16xf32>'}}
  %0 = tile.dot %a, %b, %c : tensor<2x16x16xf16>, tensor<4x16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

#bl = #tile.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>
func.func @batched_layout(%a: tensor<2x16x16xf16, #bl>, %c: tensor<2x16x16xf32, #bl>) {
  // expected-error @+1 {{'tile.dot' op 3-D (batched) operands carry no layouts: --tile-decompose-batched-dot runs first}}
  %0 = tile.dot %a, %a, %c : tensor<2x16x16xf16, #bl>, tensor<2x16x16xf16, #bl> -> tensor<2x16x16xf32, #bl>
  return
}

// -----

func.func @shapes(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expects an M x K times K x N product into M x N, got 'tensor<16x32xf16>' x 'tensor<16x16xf16>' -> 'tensor<16x16xf32>'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must have one element type (or both be fp8), got 'f16' and 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @acc(%a: tensor<32x32xi8>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator type 'f32' does not fit operands of 'i8'}}
  %0 = tile.dot %a, %a, %c : tensor<32x32xi8>, tensor<32x32xi8> -> tensor<32x32xf32>
  return
}

// -----

func.func @small(%a: tensor<16x16xi8>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.dot' op needs K >= 32, got 16}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xi32>
  return
}

// -----

#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
#opa = #tile.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#opb = #tile.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
func.func @small_with_layouts(%a: tensor<8x16xf16, #opa>, %b: tensor<16x16xf16, #opb>, %c: tensor<8x16xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op with layouts needs M >= 16 and N >= 16 (--tile-pad-small-dot runs first), got 8 and 16}}
  %0 = tile.dot %a, %b, %c : tensor<8x16xf16, #opa>, tensor<16x16xf16, #opb> -> tensor<8x16xf32, #mma>
  return
}

// -----

#mma = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
#opA = #tile.dot_op<opIdx = 0, parent = #mma, kWidth = 4>
#opB = #tile.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
func.func @kwidth(%a: tensor<32x32xf16, #opA>, %b: tensor<32x32xf16, #opB>, %c: tensor<32x32xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op operand layouts must be #tile.dot_op<opIdx = 0 / 1, parent = #tile.mma<version = 2, warpsPerCTA = [2, 2]>, kWidth = 2>, got #tile.dot_op<opIdx = 0, parent = <version = 2, warpsPerCTA = [2, 2]>, kWidth = 4> and #tile.dot_op<opIdx = 1, parent = <version = 2, warpsPerCTA = [2, 2]>, kWidth = 2>}}
  %0 = tile.dot %a, %b, %c : tensor<32x32xf16, #opA>, tensor<32x32xf16, #opB> -> tensor<32x32xf32, #mma>
  return
}

// -----

// expected-error @+1 {{mma layout warpsPerCTA entries must be powers of two, got 3}}
func.func @warps(%c: tensor<32x32xf32, #tile.mma<version = 2, warpsPerCTA = [3, 1]>>) {
  return
}

// -----

// expected-error @+1 {{mma layout version must be 2 (mma.sync) or 3 (sm_90 warp groups), got 4}}
func.func @version(%c: tensor<32x32xf32, #tile.mma<version = 4, warpsPerCTA = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{mma layout version 3 needs warp groups of 4 along M, got 2 warps along M}}
func.func @version3_groups(%c: tensor<64x64xf32, #tile.mma<version = 3, warpsPerCTA = [2, 4]>>) {
  return
}

// -----

#mma = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
#bl = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @tf32_blocked(%a: tensor<32x32xf32, #bl>, %c: tensor<32x32xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op accumulator must have a #tile.mma layout and the operands #tile.dot_op layouts of it (f16/bf16 operands: other layouts too, for A only when B has one; f32, fp8 and int8 operands both read from tile.local_load, B possibly through a tile.trans)}}
  %0 = tile.dot %a, %a, %c : tensor<32x32xf32, #bl>, tensor<32x32xf32, #bl> -> tensor<32x32xf32, #mma>
  return
}

// -----

// fp8 operands from slots: B may be read through the 2-D transpose of its
// slot (an N x K block, tutorial 09's `b_desc.load([n, k]).T`), not through
// another op.
#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
#bl = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#bt = #tile.blocked<sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
func.func @fp8_slot_b(%bufa: !tile.smem<3x64x64xf8E4M3FN>, %bufb: !tile.smem<3x64x64xf8E4M3FN>, %s: i32,
                      %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %a = tile.local_load %bufa[%s] : !tile.smem<3x64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN, #bl>
  %nk = tile.local_load %bufb[%s] : !tile.smem<3x64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN, #bl>
  %b = tile.trans %nk, [1, 0] : tensor<64x64xf8E4M3FN, #bl> -> tensor<64x64xf8E4M3FN, #bt>
  %d = tile.dot %a, %b, %c : tensor<64x64xf8E4M3FN, #bl>, tensor<64x64xf8E4M3FN, #bt> -> tensor<64x64xf32, #mma>
  %e = arith.negf %b : tensor<64x64xf8E4M3FN, #bt>
  // expected-error @+1 {{'tile.dot' op accumulator must have a #tile.mma layout}}
  %f = tile.dot %a, %e, %d : tensor<64x64xf8E4M3FN, #bl>, tensor<64x64xf8E4M3FN, #bt> -> tensor<64x64xf32, #mma>
  return %f : tensor<64x64xf32, #mma>
}
