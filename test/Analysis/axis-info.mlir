// RUN: kiln-opt %s --split-input-file --tile-test-axis-info --verify-diagnostics

// A masked row access: `off + arange` is contiguous and starts at multiples
// of 1024; `cols < N` with N a multiple of 16 is constant over runs of 16;
// the fp16 pointers are 16-byte aligned: 8 elements per access.
func.func @row(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
               %N: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1], constant = 1024}}
  %c1024 = arith.constant 1024 : i32
  // The induction variable: multiples of gcd(0, 1024).
  // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [1024], constancy = [1]}}
  scf.for %off = %c0 to %N step %c1024 : i32 {
    // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
    %offs = tile.splat %off : i32 -> tensor<1024xi32>
    // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
    %cols = arith.addi %offs, %ar : tensor<1024xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
    %Ns = tile.splat %N : i32 -> tensor<1024xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
    %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
    %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
    %p = tile.addptr %p0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    // expected-remark @below {{vector width = 8}}
    %x = tile.load %p, mask %m : tensor<1024x!tile.ptr<f16>>
  }
  return
}

// -----

// Nothing known about N: the mask may change at any element; nothing known
// about the pointer: one element per access.
func.func @unknown(%X: !tile.ptr<f32>, %Y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %N: i32) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %ar = tile.arange 0 to 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %Ns = tile.splat %N : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %m = arith.cmpi slt, %ar, %Ns : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [256], divisibility = [1], constancy = [1]}}
  %p = tile.addptr %p0, %ar : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  // expected-remark @below {{vector width = 1}}
  %x = tile.load %p : tensor<256x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %q0 = tile.splat %Y : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %q = tile.addptr %q0, %ar : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  // Aligned and contiguous, but the mask may differ between neighbours.
  // expected-remark @below {{vector width = 1}}
  tile.store %q, %x, mask %m : tensor<256x!tile.ptr<f32>>
  // Unmasked: 4 x f32 = 16 bytes.
  // expected-remark @below {{vector width = 4}}
  tile.store %q, %x : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// Hints, and a row offset `row * stride` that keeps 16-byte alignment.
func.func @hints(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %stride: i32 {tile.divisibility = 16 : i32}, %k: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %row = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %off = arith.muli %row, %stride : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %Xr = tile.addptr %X, %off : !tile.ptr<f16>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %k2 = arith.addi %k, %k : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %k8 = tile.multiple_of %k2, [8] : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64]}}
  %ks = tile.splat %k8 : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %ms = tile.splat %k2 : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1], constancy = [1]}}
  %mc = tile.max_contiguous %ms, [64] : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0 to 64 : tensor<64xi32>
  // Runs of 16 equal values (rounded down to a power of two); not contiguous.
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [16]}}
  %rc = tile.max_constancy %r, [24] : tensor<64xi32>
  return
}

// -----

// Two dimensions: rows[:, None] * N + cols[None, :].
func.func @tile2d(%N: i32 {tile.divisibility = 16 : i32}, %M: i32) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %rows = tile.arange 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %cols = tile.arange 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %r2 = tile.expand_dims %rows, 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %Ns = tile.splat %N : i32 -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %ro = arith.muli %r2, %Ns : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 128]}}
  %rob = tile.broadcast %ro : tensor<32x1xi32> -> tensor<32x128xi32>
  // expected-remark @below {{contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %c2 = tile.expand_dims %cols, 0 : tensor<128xi32> -> tensor<1x128xi32>
  // expected-remark @below {{contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [32, 1]}}
  %cob = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
  // expected-remark @below {{contiguity = [1, 128], divisibility = [1, 16], constancy = [1, 1]}}
  %offs = arith.addi %rob, %cob : tensor<32x128xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [32, 1]}}
  %Ms = tile.splat %M : i32 -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %mr = arith.cmpi slt, %r2, %Ms : tensor<32x1xi32>
  return
}


// -----

// A transpose permutes each dimension's facts: fp16 pointers contiguous in
// runs of 64 along dimension 1 are contiguous along dimension 0 of their
// transpose (what a load of `tl.load(p).T` gets after
// tile-sink-trans-into-load: its accesses stay 16 bytes wide).
func.func @transposed(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %S: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0 to 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %row = tile.expand_dims %r, 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %ss = tile.splat %S : i32 -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %rs = arith.muli %row, %ss : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tile.broadcast %rs : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %c = tile.arange 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %col = tile.expand_dims %c, 0 : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1]}}
  %cb = tile.broadcast %col : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %off = arith.addi %rb, %cb : tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 64]}}
  %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [2, 16], constancy = [1, 1]}}
  %p = tile.addptr %p0, %off : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [16, 2], constancy = [1, 1]}}
  %pt = tile.trans %p, [1, 0] : tensor<32x64x!tile.ptr<f16>> -> tensor<64x32x!tile.ptr<f16>>
  return
}

// -----

// min / max keep what both operands divide by, and fold constants: a
// descriptor access's bound clamp(N - o, 0, 64) with N and o multiples of
// 16 stays a multiple of 16, so the in-tile test r < bound is constant over
// runs of 16 (vector accesses).
func.func @clamped(%N: i64 {tile.divisibility = 16 : i32}, %o: i64 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %c64 = arith.constant 64 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %left = arith.subi %N, %o : i64
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %lo = arith.maxsi %left, %c0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %b = arith.minsi %lo, %c64 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %z = arith.minui %c64, %c0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %m = arith.maxsi %c64, %c0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %b32 = arith.trunci %b : i64 to i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %bs = tile.splat %b32 : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0 to 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %in = arith.cmpi slt, %r, %bs : tensor<64xi32>
  return
}
