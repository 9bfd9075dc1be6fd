// RUN: kiln-opt %s --split-input-file --tile-test-axis-info --verify-diagnostics

// A persistent row loop `for r in range(pid, n_rows, nprog)`: the induction
// variable is only known as pid + k * nprog (divisibility 1), but
// `r * stride` keeps the divisibility of `stride` (products multiply
// divisibility), and so does the row pointer: 16-byte vectors.
func.func @persistent(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %stride: i32 {tile.divisibility = 16 : i32},
                      %N: i32 {tile.divisibility = 16 : i32}, %rows: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %nprog = tile.num_programs 0
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %ar = tile.arange 0 to 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %Ns = tile.splat %N : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %m = arith.cmpi slt, %ar, %Ns : tensor<256xi32>
  // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [1], constancy = [1]}}
  scf.for %r = %pid to %rows step %nprog : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %off = arith.muli %r, %stride : i32
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %row = tile.addptr %X, %off : !tile.ptr<f16>, i32
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
    %p0 = tile.splat %row : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
    // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1]}}
    %p = tile.addptr %p0, %ar : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
    // expected-remark @below {{vector width = 8}}
    %x = tile.load %p, mask %m : tensor<256x!tile.ptr<f16>>
  }
  return
}

// -----

// Induction variables: divisibility is that of both the lower bound and
// the step. A product of two induction variables multiplies them.
func.func @induction(%n: i32, %k: i32 {tile.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1], constant = 32}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [32], constancy = [1]}}
  scf.for %i = %c64 to %n step %c32 : i32 {
    // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [8], constancy = [1]}}
    scf.for %j = %k to %n step %c64 : i32 {
      // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
      %ij = arith.muli %i, %j : i32
    }
  }
  return
}

// -----

// scf.for iter_args: the join (fixed point) of the initial value and every
// yielded one. A pointer advanced by a multiple of 16 elements stays 16-byte
// aligned; an offset advanced by 3 loses everything but the run structure.
func.func @iter_args(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                     %n: i32, %s: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 3}}
  %c3 = arith.constant 3 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %ar = tile.arange 0 to 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %p = tile.addptr %p0, %ar : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %step = tile.splat %s : i32 -> tensor<128xi32>
  // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{region 0 arg 1: contiguity = [128], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{region 0 arg 2: contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ptrs = %p, %odd = %c0)
      -> (tensor<128x!tile.ptr<f32>>, i32) : i32 {
    // expected-remark @below {{vector width = 4}}
    %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
    // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
    %next = tile.addptr %ptrs, %step : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %odd3 = arith.addi %odd, %c3 : i32
    scf.yield %next, %odd3 : tensor<128x!tile.ptr<f32>>, i32
  }
  return
}

// -----

// scf.while loop-carried values: `i` starts at 0 and grows by 64, so it is
// a multiple of 64 in both regions and after the loop.
func.func @while_loop(%n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{region 0 arg 0: contiguity = [1], divisibility = [64], constancy = [1]}}
  // expected-remark @below {{region 1 arg 0: contiguity = [1], divisibility = [64], constancy = [1]}}
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
    %next = arith.addi %i, %c64 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// Division and remainder by constants (indices are assumed non-negative, as
// in Triton): `x // c` is constant over aligned blocks of c consecutive
// values, `x % c` is contiguous within them; shifts right divide.
func.func @div_rem(%k: i32 {tile.divisibility = 64 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = 16}}
  %c16 = arith.constant 16 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256], constant = 16}}
  %c16t = arith.constant dense<16> : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [256]}}
  %c6t = arith.constant dense<6> : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %ar = tile.arange 0 to 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %q = arith.divsi %ar, %c16t : tensor<256xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %r = arith.remsi %ar, %c16t : tensor<256xi32>
  // expected-remark @below {{contiguity = [2], divisibility = [2], constancy = [1]}}
  %r6 = arith.remsi %ar, %c6t : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %kq = arith.divui %k, %c16 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %kr = arith.remui %k, %c16 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant = 4}}
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %ks = arith.shrui %k, %c4 : i32
  return
}

// Remainder by a runtime divisor known only by its facts, Triton's matmul
// tutorial's `(pid_n * BLOCK_N + arange) % N` with N specialized as divisible
// by 16: aligned runs of 16 never cross a multiple of N (as for a constant
// divisor), so the pointers stay 16-element contiguous; a divisor that is
// not uniform over the runs (a tensor that varies) gives nothing.
func.func @rem_runtime(%pid: i32 {tile.divisibility = 1 : i32},
                       %N: i32 {tile.divisibility = 16 : i32}, %M: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1], constant = 256}}
  %c256 = arith.constant 256 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %base = arith.muli %pid, %c256 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [256]}}
  %bt = tile.splat %base : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %ar = tile.arange 0 to 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1]}}
  %offs = arith.addi %bt, %ar : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %Nt = tile.splat %N : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %r = arith.remsi %offs, %Nt : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %Mt = tile.splat %M : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %rm = arith.remsi %offs, %Mt : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %rv = arith.remsi %offs, %ar : tensor<256xi32>
  return
}

// -----

// Casts keep the facts; select/where keep what both sides share.
func.func @casts_select(%k: i32 {tile.divisibility = 16 : i32}, %c: i1,
                        %j: i32 {tile.divisibility = 4 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %w = arith.extsi %k : i32 to i64
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %t = arith.trunci %w : i64 to i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %s = arith.select %c, %t, %j : i32
  return
}
