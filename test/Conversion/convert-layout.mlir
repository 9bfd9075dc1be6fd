// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// Elements move between warps (#a gives warp 0 elements 0-127, #b gives it
// 0-31 and 64-95): every thread writes its elements to shared memory by
// index (its 4 contiguous registers as one 16-byte vector), a barrier, and
// reads the ones it owns in the new layout. A barrier before the writes
// protects earlier readers of the scratch area. One row: no padding.
#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK: tile.shared_bytes = 1024 : i32
// CHECK-LABEL: llvm.func @exchange
// CHECK-NOT: nvvm.shfl
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
module attributes {tile.num_warps = 2 : i32} {
  func.func @exchange(%p: !tile.ptr<f32>) {
    %cols = tile.arange 0 to 256 : tensor<256xi32, #a>
    %f = arith.sitofp %cols : tensor<256xi32, #a> to tensor<256xf32, #a>
    %c = tile.convert_layout %f : tensor<256xf32, #a> -> tensor<256xf32, #b>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
    tile.store %p0, %c : tensor<256x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// The same in one warp: every element stays in the warp, so warp shuffles
// move them, no shared memory (Analysis/LayoutExchange.h). Lane m needs
// elements m + 32 j, held by lane (m + 32 j) / 4: the four readers of a
// sender would want four of its registers in one round, so reader lane bits
// 0-1 also pick the destination register a round fills. Each sender then
// has one reader per round and picks which of its 4 registers to send by
// its own lane (3 selects); each reader moves what it got into place (two
// lane bits, 4 selects each).
#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @shuffle
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK-COUNT-3: llvm.select
// CHECK: nvvm.shfl.sync  idx
// CHECK-COUNT-3: llvm.select
// CHECK: nvvm.shfl.sync  idx
// CHECK-COUNT-3: llvm.select
// CHECK: nvvm.shfl.sync  idx
// CHECK-COUNT-3: llvm.select
// CHECK: nvvm.shfl.sync  idx
// CHECK-NOT: nvvm.shfl
// CHECK-COUNT-8: llvm.select {{.*}} : i1, f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @shuffle(%p: !tile.ptr<f32>) {
    %cols = tile.arange 0 to 128 : tensor<128xi32, #a>
    %f = arith.sitofp %cols : tensor<128xi32, #a> to tensor<128xf32, #a>
    %c = tile.convert_layout %f : tensor<128xf32, #a> -> tensor<128xf32, #b>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #b>
    tile.store %p0, %c : tensor<128x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// An mma.sync accumulator read as a tf32 A operand in one warp (fla's
// block solves): lane pairs (m, m ^ 1) read the same accumulator column
// pair, so odd lanes fill each round's partner register (one reader select
// per register): 8 shuffles, no shared memory.
#mma = #tile.mma<version = 2, warpsPerCTA = [1, 1]>
#opA = #tile.dot_op<opIdx = 0, parent = #mma, kWidth = 1>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @operand
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: nvvm.shfl.sync  idx {{.*}} : f32 -> f32
// CHECK-NOT: nvvm.shfl
// CHECK-COUNT-8: llvm.select {{.*}} : i1, f32
// CHECK-NOT: nvvm.barrier0
module attributes {tile.num_warps = 1 : i32} {
  func.func @operand(%p: !tile.ptr<f32>) {
    %r = tile.arange 0 to 16 : tensor<16xi32, #tile.slice<dim = 1, parent = #mma>>
    %e = tile.expand_dims %r, 1 : tensor<16xi32, #tile.slice<dim = 1, parent = #mma>> -> tensor<16x1xi32, #mma>
    %b = tile.broadcast %e : tensor<16x1xi32, #mma> -> tensor<16x16xi32, #mma>
    %f = arith.sitofp %b : tensor<16x16xi32, #mma> to tensor<16x16xf32, #mma>
    %c = tile.convert_layout %f : tensor<16x16xf32, #mma> -> tensor<16x16xf32, #opA>
    tile.print "c" %c : tensor<16x16xf32, #opA>
    return
  }
}

// -----

// A 16-bit mma.sync operand (kWidth 2) from a blocked tile in one warp,
// whose shuffles would need 40 selects: the operand staging through shared
// memory (DotOperandToLLVM.cpp) takes it, as the scratch size counts (the
// 512 bytes of the tile; session 54 had staged such a tile into a scratch of
// 0 bytes when the two disagreed). One warp synchronizes with bar.warp.sync.
#mma = #tile.mma<version = 2, warpsPerCTA = [1, 1]>
#blk = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#opA = #tile.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
// CHECK: tile.shared_bytes = 512 : i32
// CHECK-LABEL: llvm.func @operand16
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: nvvm.shfl
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.bar.warp.sync
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: nvvm.shfl
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @operand16(%x: bf16) {
    %r = tile.arange 0 to 16 : tensor<16xi32, #tile.slice<dim = 1, parent = #blk>>
    %e = tile.expand_dims %r, 1 : tensor<16xi32, #tile.slice<dim = 1, parent = #blk>> -> tensor<16x1xi32, #blk>
    %b = tile.broadcast %e : tensor<16x1xi32, #blk> -> tensor<16x16xi32, #blk>
    %f = arith.sitofp %b : tensor<16x16xi32, #blk> to tensor<16x16xbf16, #blk>
    %c = tile.convert_layout %f : tensor<16x16xbf16, #blk> -> tensor<16x16xbf16, #opA>
    tile.print "c" %c : tensor<16x16xbf16, #opA>
    return
  }
}

// -----

// 16-bit elements: two rounds that read the same lanes share one 32-bit
// shuffle. The lanes of a 16 x 4 tile go along the rows in one layout and
// along the column pairs first in the other: each thread's two registers
// come from one lane, in one shuffle with no selects.
#a = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [0, 1]>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @packed
// CHECK-NOT: nvvm.bar
// CHECK-COUNT-1: nvvm.shfl.sync  idx {{.*}} : i32 -> i32
// CHECK-NOT: nvvm.shfl
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @packed(%p: !tile.ptr<bf16>) {
    %r = tile.arange 0 to 16 : tensor<16xi32, #tile.slice<dim = 1, parent = #a>>
    %e = tile.expand_dims %r, 1 : tensor<16xi32, #tile.slice<dim = 1, parent = #a>> -> tensor<16x1xi32, #a>
    %b = tile.broadcast %e : tensor<16x1xi32, #a> -> tensor<16x4xi32, #a>
    %f = arith.sitofp %b : tensor<16x4xi32, #a> to tensor<16x4xbf16, #a>
    %c = tile.convert_layout %f : tensor<16x4xbf16, #a> -> tensor<16x4xbf16, #b>
    tile.print "c" %c : tensor<16x4xbf16, #b>
    return
  }
}

// -----

// A 16 x 16 bf16 accumulator converted for its store in one warp (fla's kkt
// solve writes ten): shuffles would take 4 shuffles and 40 selects, more
// issue slots than the exchange through shared memory, which one warp
// synchronizes with bar.warp.sync.
#mma = #tile.mma<version = 2, warpsPerCTA = [1, 1]>
#blk = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
// CHECK-LABEL: llvm.func @store16
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: nvvm.shfl
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @store16(%p: !tile.ptr<bf16>) {
    %r = tile.arange 0 to 16 : tensor<16xi32, #tile.slice<dim = 1, parent = #mma>>
    %e = tile.expand_dims %r, 1 : tensor<16xi32, #tile.slice<dim = 1, parent = #mma>> -> tensor<16x1xi32, #mma>
    %b = tile.broadcast %e : tensor<16x1xi32, #mma> -> tensor<16x16xi32, #mma>
    %f = arith.sitofp %b : tensor<16x16xi32, #mma> to tensor<16x16xbf16, #mma>
    %c = tile.convert_layout %f : tensor<16x16xbf16, #mma> -> tensor<16x16xbf16, #blk>
    tile.print "c" %c : tensor<16x16xbf16, #blk>
    return
  }
}

// -----

// Same threads, registers in another order: no shared memory at all.
#a = #tile.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tile.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @permute
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @permute(%x: f32) {
    %t = tile.splat %x : f32 -> tensor<2x64xf32, #a>
    %c = tile.convert_layout %t : tensor<2x64xf32, #a> -> tensor<2x64xf32, #b>
    tile.print "c" %c : tensor<2x64xf32, #b>
    return
  }
}

// -----

// A transpose of a 32x32 fp16 tile (row-major [1, 8] per thread to
// column-major [8, 1], the layouts of the coalesced load and store of
// bench/corpus/layout.py's batched_transpose_kernel). Rows of the shared
// buffer are padded by 2 halves (68 bytes): the reads of a warp (8 rows
// apart, 4-byte banks) then hit distinct banks, and the writes are 2-element
// vectors that the padded rows still align. 32 rows x 34 halves x 2 bytes.
#row = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tile.shared_bytes = 2176 : i32
// CHECK-LABEL: llvm.func @transpose
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store {{.*}} {alignment = 4 : i64} : vector<2xi16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i16
module attributes {tile.num_warps = 4 : i32} {
  func.func @transpose(%x: f16) {
    %r = tile.arange 0 to 32 : tensor<32xi32, #tile.slice<dim = 1, parent = #row>>
    %e = tile.expand_dims %r, 1 : tensor<32xi32, #tile.slice<dim = 1, parent = #row>> -> tensor<32x1xi32, #row>
    %b = tile.broadcast %e : tensor<32x1xi32, #row> -> tensor<32x32xi32, #row>
    %f = arith.sitofp %b : tensor<32x32xi32, #row> to tensor<32x32xf16, #row>
    %c = tile.convert_layout %f : tensor<32x32xf16, #row> -> tensor<32x32xf16, #col>
    tile.print "c" %c : tensor<32x32xf16, #col>
    return
  }
}
