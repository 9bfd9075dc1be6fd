// RUN: kiln-opt %s --split-input-file --tile-assign-layouts --tile-pipeline-loops | FileCheck %s

// fp8 operands of a K loop on sm_90, both loaded with K contiguous (A rows of
// K; B[k, n] at k + n * K, as tutorial 03 passes B = (N x K)^T): wgmma reads
// 8-bit operands only K-major, so the dot gets all warps along M (warp
// groups), A is copied 16 bytes at a time into slots of M rows of K and B
// into transposed slots (N rows of K), the dot reads both slots (no #dot_op
// conversions are left) and its products stay in flight across iterations.
// CHECK-DAG: #[[A:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
// CHECK-LABEL: func.func @kmajor
// CHECK-DAG: %[[SA:.*]] = tile.local_alloc : <3x64x64xf8E4M3FN>
// CHECK-DAG: %[[SB:.*]] = tile.local_alloc : <3x64x64xf8E5M2, transposed>
// CHECK: tile.async_copy {{.*}} into %[[SA]]
// CHECK: tile.async_copy {{.*}} into %[[SB]]
// CHECK: scf.for
// CHECK-NOT: dot_op
// CHECK: %[[TA:.*]] = tile.local_load %[[SA]]
// CHECK: %[[TB:.*]] = tile.local_load %[[SB]]
// CHECK: tile.dot %[[TA]], %[[TB]], %{{.*}} {tile.wgmma_pending = 1 : i32} : tensor<64x64xf8E4M3FN, #[[A]]>, tensor<64x64xf8E5M2, #[[B]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tile.async_copy
// CHECK: tile.dot_wait
module attributes {tile.arch = "sm_90", tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  func.func @kmajor(%a: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %k: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.arange 0 to 64 : tensor<64xi32>
    %col = tile.expand_dims %r, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row = tile.expand_dims %r, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %r2 = tile.arange 0 to 64 : tensor<64xi32>
    %col2 = tile.expand_dims %r2, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row2 = tile.expand_dims %r2, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %kc = tile.splat %k : i32 -> tensor<64x1xi32>
    %kr = tile.splat %k : i32 -> tensor<1x64xi32>
    %mk = arith.muli %row, %kc : tensor<64x1xi32>
    %nk = arith.muli %col2, %kr : tensor<1x64xi32>
    %am = tile.broadcast %mk : tensor<64x1xi32> -> tensor<64x64xi32>
    %ak = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %am, %ak : tensor<64x64xi32>
    %bk = tile.broadcast %row2 : tensor<64x1xi32> -> tensor<64x64xi32>
    %bn = tile.broadcast %nk : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %bk, %bn : tensor<64x64xi32>
    %abase = tile.splat %a : !tile.ptr<f8E4M3FN> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %aptr = tile.addptr %abase, %aoff : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %bbase = tile.splat %b : !tile.ptr<f8E5M2> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %bptr = tile.addptr %bbase, %boff : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %kstep = arith.constant dense<64> : tensor<64x64xi32>
    %kstep2 = arith.constant dense<64> : tensor<64x64xi32>
    %nstep = arith.constant dense<4096> : tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %pa = %aptr, %pb = %bptr)
        -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f8E4M3FN>>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f8E5M2>>
      %d = tile.dot %x, %y, %acc : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2> -> tensor<64x64xf32>
      %pa2 = tile.addptr %pa, %kstep : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
      %pb2 = tile.addptr %pb, %kstep2 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>
    }
    %cm = arith.constant dense<64> : tensor<64x1xi32>
    %crow = arith.muli %row, %cm : tensor<64x1xi32>
    %cr = tile.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
    %cc = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %coff = arith.addi %cr, %cc : tensor<64x64xi32>
    %cbase = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %cptr = tile.addptr %cbase, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    tile.store %cptr, %res#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// B loaded with N contiguous (B[k, n] at k * 64 + n) is not K-major, and
// fp8 wgmma has no transposed operands: the dot keeps the mma.sync layout
// (warps split over M and N), nothing goes to slots, and the operands
// convert to #dot_op registers (fp8 to f16 pairs in the lowering).
// CHECK: #[[MMA2:mma[0-9]*]] = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
// CHECK-LABEL: func.func @b_n_contiguous
// CHECK-NOT: tile.local_alloc
// CHECK: tile.convert_layout {{.*}} -> tensor<64x64xf8E4M3FN, #dot_op{{[0-9]*}}>
// CHECK: tile.convert_layout {{.*}} -> tensor<64x64xf8E5M2, #dot_op{{[0-9]*}}>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #[[MMA2]]>
module attributes {tile.arch = "sm_90", tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  func.func @b_n_contiguous(%a: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %k: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.arange 0 to 64 : tensor<64xi32>
    %col = tile.expand_dims %r, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row = tile.expand_dims %r, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %r2 = tile.arange 0 to 64 : tensor<64xi32>
    %col2 = tile.expand_dims %r2, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row2 = tile.expand_dims %r2, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %kc = tile.splat %k : i32 -> tensor<64x1xi32>
    %kr = tile.splat %k : i32 -> tensor<1x64xi32>
    %mk = arith.muli %row, %kc : tensor<64x1xi32>
    %nk = arith.muli %col2, %kr : tensor<1x64xi32>
    %am = tile.broadcast %mk : tensor<64x1xi32> -> tensor<64x64xi32>
    %ak = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %am, %ak : tensor<64x64xi32>
    %c64r = arith.constant dense<64> : tensor<64x1xi32>
    %k64 = arith.muli %row2, %c64r : tensor<64x1xi32>
    %bk = tile.broadcast %k64 : tensor<64x1xi32> -> tensor<64x64xi32>
    %bn = tile.broadcast %col2 : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %bk, %bn : tensor<64x64xi32>
    %abase = tile.splat %a : !tile.ptr<f8E4M3FN> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %aptr = tile.addptr %abase, %aoff : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %bbase = tile.splat %b : !tile.ptr<f8E5M2> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %bptr = tile.addptr %bbase, %boff : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %kstep = arith.constant dense<64> : tensor<64x64xi32>
    %kstep2 = arith.constant dense<64> : tensor<64x64xi32>
    %nstep = arith.constant dense<4096> : tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %pa = %aptr, %pb = %bptr)
        -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f8E4M3FN>>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f8E5M2>>
      %d = tile.dot %x, %y, %acc : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2> -> tensor<64x64xf32>
      %pa2 = tile.addptr %pa, %kstep : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
      %pb2 = tile.addptr %pb, %nstep : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>
    }
    %cm = arith.constant dense<64> : tensor<64x1xi32>
    %crow = arith.muli %row, %cm : tensor<64x1xi32>
    %cr = tile.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
    %cc = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %coff = arith.addi %cr, %cc : tensor<64x64xi32>
    %cbase = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %cptr = tile.addptr %cbase, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    tile.store %cptr, %res#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// sm_89 has no wgmma: the K-major loop stays on mma.sync.
// CHECK: #tile.mma<version = 2, warpsPerCTA = [2, 2]>
// CHECK-LABEL: func.func @sm89
// CHECK-NOT: tile.local_alloc
// CHECK: tile.convert_layout {{.*}} -> tensor<64x64xf8E4M3FN, #dot_op{{[0-9]*}}>
module attributes {tile.arch = "sm_89", tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  func.func @sm89(%a: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %k: i32 {tile.divisibility = 16 : i32}) {
    %r = tile.arange 0 to 64 : tensor<64xi32>
    %col = tile.expand_dims %r, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row = tile.expand_dims %r, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %r2 = tile.arange 0 to 64 : tensor<64xi32>
    %col2 = tile.expand_dims %r2, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row2 = tile.expand_dims %r2, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %kc = tile.splat %k : i32 -> tensor<64x1xi32>
    %kr = tile.splat %k : i32 -> tensor<1x64xi32>
    %mk = arith.muli %row, %kc : tensor<64x1xi32>
    %nk = arith.muli %col2, %kr : tensor<1x64xi32>
    %am = tile.broadcast %mk : tensor<64x1xi32> -> tensor<64x64xi32>
    %ak = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %am, %ak : tensor<64x64xi32>
    %bk = tile.broadcast %row2 : tensor<64x1xi32> -> tensor<64x64xi32>
    %bn = tile.broadcast %nk : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %bk, %bn : tensor<64x64xi32>
    %abase = tile.splat %a : !tile.ptr<f8E4M3FN> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %aptr = tile.addptr %abase, %aoff : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %bbase = tile.splat %b : !tile.ptr<f8E5M2> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %bptr = tile.addptr %bbase, %boff : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %kstep = arith.constant dense<64> : tensor<64x64xi32>
    %kstep2 = arith.constant dense<64> : tensor<64x64xi32>
    %nstep = arith.constant dense<4096> : tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %pa = %aptr, %pb = %bptr)
        -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f8E4M3FN>>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f8E5M2>>
      %d = tile.dot %x, %y, %acc : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2> -> tensor<64x64xf32>
      %pa2 = tile.addptr %pa, %kstep : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
      %pb2 = tile.addptr %pb, %kstep2 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>
    }
    %cm = arith.constant dense<64> : tensor<64x1xi32>
    %crow = arith.muli %row, %cm : tensor<64x1xi32>
    %cr = tile.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
    %cc = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %coff = arith.addi %cr, %cc : tensor<64x64xi32>
    %cbase = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %cptr = tile.addptr %cbase, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    tile.store %cptr, %res#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}

// -----

// K not known divisible by 16: the rows of A and B are not proven 4-byte
// aligned, so their copies would move single bytes, which slots do not take:
// mma.sync, with the warps it would have had.
// CHECK: #tile.mma<version = 2, warpsPerCTA = [2, 2]>
// CHECK-LABEL: func.func @kmajor_unaligned
// CHECK-NOT: tile.local_alloc
// CHECK: tile.convert_layout {{.*}} -> tensor<64x64xf8E5M2, #dot_op{{[0-9]*}}>
module attributes {tile.arch = "sm_90", tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  func.func @kmajor_unaligned(%a: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %k: i32) {
    %r = tile.arange 0 to 64 : tensor<64xi32>
    %col = tile.expand_dims %r, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row = tile.expand_dims %r, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %r2 = tile.arange 0 to 64 : tensor<64xi32>
    %col2 = tile.expand_dims %r2, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %row2 = tile.expand_dims %r2, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %kc = tile.splat %k : i32 -> tensor<64x1xi32>
    %kr = tile.splat %k : i32 -> tensor<1x64xi32>
    %mk = arith.muli %row, %kc : tensor<64x1xi32>
    %nk = arith.muli %col2, %kr : tensor<1x64xi32>
    %am = tile.broadcast %mk : tensor<64x1xi32> -> tensor<64x64xi32>
    %ak = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %aoff = arith.addi %am, %ak : tensor<64x64xi32>
    %bk = tile.broadcast %row2 : tensor<64x1xi32> -> tensor<64x64xi32>
    %bn = tile.broadcast %nk : tensor<1x64xi32> -> tensor<64x64xi32>
    %boff = arith.addi %bk, %bn : tensor<64x64xi32>
    %abase = tile.splat %a : !tile.ptr<f8E4M3FN> -> tensor<64x64x!tile.ptr<f8E4M3FN>>
    %aptr = tile.addptr %abase, %aoff : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %bbase = tile.splat %b : !tile.ptr<f8E5M2> -> tensor<64x64x!tile.ptr<f8E5M2>>
    %bptr = tile.addptr %bbase, %boff : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
    %kstep = arith.constant dense<64> : tensor<64x64xi32>
    %kstep2 = arith.constant dense<64> : tensor<64x64xi32>
    %nstep = arith.constant dense<4096> : tensor<64x64xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %zero, %pa = %aptr, %pb = %bptr)
        -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>) : i32 {
      %x = tile.load %pa : tensor<64x64x!tile.ptr<f8E4M3FN>>
      %y = tile.load %pb : tensor<64x64x!tile.ptr<f8E5M2>>
      %d = tile.dot %x, %y, %acc : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2> -> tensor<64x64xf32>
      %pa2 = tile.addptr %pa, %kstep : tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64xi32>
      %pb2 = tile.addptr %pb, %kstep2 : tensor<64x64x!tile.ptr<f8E5M2>>, tensor<64x64xi32>
      scf.yield %d, %pa2, %pb2 : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f8E4M3FN>>, tensor<64x64x!tile.ptr<f8E5M2>>
    }
    %cm = arith.constant dense<64> : tensor<64x1xi32>
    %crow = arith.muli %row, %cm : tensor<64x1xi32>
    %cr = tile.broadcast %crow : tensor<64x1xi32> -> tensor<64x64xi32>
    %cc = tile.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %coff = arith.addi %cr, %cc : tensor<64x64xi32>
    %cbase = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %cptr = tile.addptr %cbase, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    tile.store %cptr, %res#0 : tensor<64x64x!tile.ptr<f32>>
    return
  }
}
