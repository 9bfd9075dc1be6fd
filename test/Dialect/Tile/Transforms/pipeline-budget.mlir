// RUN: kiln-opt %s --tile-assign-layouts --tile-pipeline-loops | FileCheck %s
// RUN: ln-compile %s --verify-each --emit=llvm-dialect | FileCheck %s --check-prefix=SMEM

// What runs before a K loop shares the loop's slots' bytes (a barrier before
// the slots' prologue separates them: SharedMemoryPlan.cpp), so the slot
// budget does not count it: a 128 x 128 x 128 product staged through 64 KB
// of scratch before a loop asking for 6 stages of 32 KB leaves room for all
// 6 (192 KB of 227), where counting it left 4 (vLLM's fused MoE: a 72 KB
// exchange of its gathered A pointers before the loop cost it a stage).
// CHECK-LABEL: func.func @before
// CHECK: tile.dot
// CHECK: tile.local_alloc : <6x128x64xf16>
// CHECK: tile.local_alloc : <6x64x128xf16>
// The kernel's shared memory is the slots' alone: the product before the
// loop and the exchange after it reuse their bytes.
// SMEM: tile.shared_bytes = 196608
module attributes {tile.arch = "sm_90", tile.num_stages = 6 : i32, tile.num_warps = 4 : i32} {
  func.func @before(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %k: i32 {tile.divisibility = 16 : i32}) {
    // A 128 x 128 x 128 product before the loop, its operands staged
    // through the scratch by the dot (64 KB).
    %p0 = tile.splat %a : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>>
    %r4 = tile.arange 0 to 128 : tensor<128xi32>
    %prow = tile.expand_dims %r4, 1 : tensor<128xi32> -> tensor<128x1xi32>
    %pcol = tile.expand_dims %r4, 0 : tensor<128xi32> -> tensor<1x128xi32>
    %c128p = arith.constant dense<128> : tensor<128x1xi32>
    %pm = arith.muli %prow, %c128p : tensor<128x1xi32>
    %pmb = tile.broadcast %pm : tensor<128x1xi32> -> tensor<128x128xi32>
    %pnb = tile.broadcast %pcol : tensor<1x128xi32> -> tensor<128x128xi32>
    %poff = arith.addi %pmb, %pnb : tensor<128x128xi32>
    %pptr = tile.addptr %p0, %poff : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
    %px = tile.load %pptr : tensor<128x128x!tile.ptr<f16>>
    %py0 = arith.addf %px, %px : tensor<128x128xf16>
    %pzero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pre = tile.dot %px, %py0, %pzero : tensor<128x128xf16>, tensor<128x128xf16> -> tensor<128x128xf32>
    %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
    %pcptr = tile.addptr %pc, %poff : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
    tile.store %pcptr, %pre : tensor<128x128x!tile.ptr<f32>>
    // The K loop: 128 x 64 and 64 x 128 f16 tiles, 32 KB a stage, 6 stages.
    %r = tile.arange 0 to 128 : tensor<128xi32>
    %rk = tile.arange 0 to 64 : tensor<64xi32>
    %arow = tile.expand_dims %r, 1 : tensor<128xi32> -> tensor<128x1xi32>
    %acol = tile.expand_dims %rk, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %kc = tile.splat %k : i32 -> tensor<128x1xi32>
    %am = arith.muli %arow, %kc : tensor<128x1xi32>
    %amb = tile.broadcast %am : tensor<128x1xi32> -> tensor<128x64xi32>
    %akb = tile.broadcast %acol : tensor<1x64xi32> -> tensor<128x64xi32>
    %aoff = arith.addi %amb, %akb : tensor<128x64xi32>
    %abase = tile.splat %a : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
    %aptr = tile.addptr %abase, %aoff : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %rk2 = tile.arange 0 to 64 : tensor<64xi32>
    %r2 = tile.arange 0 to 128 : tensor<128xi32>
    %brow = tile.expand_dims %rk2, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %bcol = tile.expand_dims %r2, 0 : tensor<128xi32> -> tensor<1x128xi32>
    %c128b = arith.constant dense<128> : tensor<64x1xi32>
    %bk = arith.muli %brow, %c128b : tensor<64x1xi32>
    %bkb = tile.broadcast %bk : tensor<64x1xi32> -> tensor<64x128xi32>
    %bnb = tile.broadcast %bcol : tensor<1x128xi32> -> tensor<64x128xi32>
    %boff = arith.addi %bkb, %bnb : tensor<64x128xi32>
    %bbase = tile.splat %b : !tile.ptr<f16> -> tensor<64x128x!tile.ptr<f16>>
    %bptr = tile.addptr %bbase, %boff : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
    %astep = arith.constant dense<64> : tensor<128x64xi32>
    %bstep = arith.constant dense<8192> : tensor<64x128xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %pa = %aptr, %pb = %bptr)
        -> (tensor<128x128xf32>, tensor<128x64x!tile.ptr<f16>>, tensor<64x128x!tile.ptr<f16>>) : i32 {
      %x = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
      %y = tile.load %pb : tensor<64x128x!tile.ptr<f16>>
      %d = tile.dot %x, %y, %acc : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
      %pa2 = tile.addptr %pa, %astep : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
      %pb2 = tile.addptr %pb, %bstep : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi32>
      scf.yield %d, %pa2, %pb2 : tensor<128x128xf32>, tensor<128x64x!tile.ptr<f16>>, tensor<64x128x!tile.ptr<f16>>
    }
    %obase = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
    %r3 = tile.arange 0 to 128 : tensor<128xi32>
    %orow = tile.expand_dims %r3, 1 : tensor<128xi32> -> tensor<128x1xi32>
    %ocol = tile.expand_dims %r3, 0 : tensor<128xi32> -> tensor<1x128xi32>
    %c128c = arith.constant dense<128> : tensor<128x1xi32>
    %om = arith.muli %orow, %c128c : tensor<128x1xi32>
    %omb = tile.broadcast %om : tensor<128x1xi32> -> tensor<128x128xi32>
    %onb = tile.broadcast %ocol : tensor<1x128xi32> -> tensor<128x128xi32>
    %ooff = arith.addi %omb, %onb : tensor<128x128xi32>
    %optr = tile.addptr %obase, %ooff : tensor<128x128x!tile.ptr<f32>>, tensor<128x128xi32>
    tile.store %optr, %res#0 : tensor<128x128x!tile.ptr<f32>>
    return
  }
}
