// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// argmax as a (value, index) tile.reduce over 4 warps: the combiner (cmpf +
// select) is inlined at every combination; each tuple element is shuffled
// and goes through its own part of shared memory (f32 partials at 0, i32 at
// 16: 4 warps x 4 bytes each).
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 32 : i32
// CHECK-LABEL: llvm.func @argmax
// In-thread: one combination of the two registers.
// CHECK: llvm.fcmp "ogt"
// CHECK: llvm.select
// CHECK: llvm.select
// Lanes: value and index shuffled together, five times, each lane combining
// (its own, the other's) as Triton does; then every lane takes lane 0's
// result (shfl.idx), so NaNs leave every lane the same.
// CHECK: %[[V:.*]] = nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK: llvm.fcmp "ogt" %[[MINE:.*]], %[[V]] : f32
// CHECK-NOT: llvm.select {{.*}} : i1, f32
// CHECK: llvm.select %{{.*}}, %[[MINE]], %[[V]] : i1, f32
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK: %[[FIRST:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: nvvm.shfl.sync  idx %{{.*}}, %{{.*}}, %[[FIRST]], %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync  idx %{{.*}}, %{{.*}}, %[[FIRST]], %{{.*}} : i32 -> i32
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i32
module attributes {tile.num_warps = 4 : i32} {
  func.func @argmax(%p: !tile.ptr<f32>, %out: !tile.ptr<i32>) {
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
    %i = tile.arange 0 to 256 : tensor<256xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    %x = tile.load %ptrs : tensor<256x!tile.ptr<f32>, #b>
    %m:2 = tile.reduce(%x, %i) axis = 0 : (tensor<256xf32, #b>, tensor<256xi32, #b>) -> (f32, i32) {
    ^bb0(%a: f32, %ai: i32, %c: f32, %ci: i32):
      %gt = arith.cmpf ogt, %a, %c : f32
      %v = arith.select %gt, %a, %c : f32
      %vi = arith.select %gt, %ai, %ci : i32
      tile.yield %v, %vi : f32, i32
    }
    tile.store %out, %m#1 : !tile.ptr<i32>
    return
  }
}

// -----

// Inclusive scan over 1-D tensor: 2 register bits (in-thread), 5 lane bits
// (shuffles of the running totals, selected by the lane's bit), 1 warp bit
// (totals through shared memory: one i32 per warp, the 128 elements below
// the warp bit share it; the plan rounds 8 bytes up to 16). The thread's 4
// registers share one total by then: it is stored and its partner loaded
// once.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 16 : i32
// CHECK-LABEL: llvm.func @cumsum
// CHECK-COUNT-6: llvm.add
// CHECK: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 2 : i32} {
  func.func @cumsum(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>, #b>
    %i = tile.arange 0 to 256 : tensor<256xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<256x!tile.ptr<i32>, #b>, tensor<256xi32, #b>
    %x = tile.load %ptrs : tensor<256x!tile.ptr<i32>, #b>
    %c = tile.scan(%x) axis = 0 : (tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tile.yield %s : i32
    }
    tile.store %ptrs, %c : tensor<256x!tile.ptr<i32>, #b>
    return
  }
}

// -----

// Three warp bits (8 warps) in one shared-memory round, as Triton reads all
// warp totals at once: one store of the thread's total, two barriers (one
// before the store, one after), then the totals of the 7 warps that can come
// before a thread's own, in a reverse scan those of the higher warps (the
// 8th total is only a new total, which the last step does not need). One
// total per warp: 32 bytes.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 32 : i32
// CHECK-LABEL: llvm.func @cumsum_8_warps
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-7: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 8 : i32} {
  func.func @cumsum_8_warps(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>, #b>
    %i = tile.arange 0 to 256 : tensor<256xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<256x!tile.ptr<i32>, #b>, tensor<256xi32, #b>
    %x = tile.load %ptrs : tensor<256x!tile.ptr<i32>, #b>
    %c = tile.scan(%x) axis = 0 reverse : (tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tile.yield %s : i32
    }
    tile.store %ptrs, %c : tensor<256x!tile.ptr<i32>, #b>
    return
  }
}

// -----

// A reverse scan along axis 1 of a 2-D tile whose axis-1 bits are lanes
// only: shuffles, no shared memory.
#b = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @reverse_rows
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-3: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @reverse_rows(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #b>
    %x = tile.load %ps : tensor<16x8x!tile.ptr<f32>, #b>
    %c = tile.scan(%x) axis = 1 reverse : (tensor<16x8xf32, #b>) -> tensor<16x8xf32, #b> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.mulf %a, %b : f32
      tile.yield %s : f32
    }
    tile.store %ps, %c : tensor<16x8x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// A tuple reduction along axis 0 of a 2-D tile whose warps split that axis:
// each tuple element has its own part of the scratch, f16 partials at 0
// (4 warps x 32 columns x 2 bytes = 256) and i64 ones at 256 (1024 bytes).
#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#s = #tile.slice<dim = 0, parent = #b>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 1280 : i32
// CHECK-LABEL: llvm.func @tuple_columns
// In-thread: none (one row per thread); lanes: two row bits, f16 and i64
// (the latter as two 32-bit halves) shuffled for each of the 4 columns.
// CHECK: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK: llvm.fadd {{.*}} : f16
// CHECK: llvm.xor {{.*}} : i64
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
// CHECK: %[[BASE:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK: llvm.add %{{.*}}, %[[BASE]] : i32
// CHECK: llvm.store {{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i16
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i64
module attributes {tile.num_warps = 4 : i32} {
  func.func @tuple_columns(%p: !tile.ptr<f16>, %q: !tile.ptr<i64>) {
    %ps = tile.splat %p : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>, #b>
    %x = tile.load %ps : tensor<32x32x!tile.ptr<f16>, #b>
    %qs = tile.splat %q : !tile.ptr<i64> -> tensor<32x32x!tile.ptr<i64>, #b>
    %y = tile.load %qs : tensor<32x32x!tile.ptr<i64>, #b>
    %r:2 = tile.reduce(%x, %y) axis = 0 : (tensor<32x32xf16, #b>, tensor<32x32xi64, #b>) -> (tensor<32xf16, #s>, tensor<32xi64, #s>) {
    ^bb0(%a: f16, %ai: i64, %c: f16, %ci: i64):
      %v = arith.addf %a, %c : f16
      %vi = arith.xori %ai, %ci : i64
      tile.yield %v, %vi : f16, i64
    }
    %o = tile.splat %q : !tile.ptr<i64> -> tensor<32x!tile.ptr<i64>, #s>
    tile.store %o, %r#1 : tensor<32x!tile.ptr<i64>, #s>
    %o2 = tile.splat %p : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>, #s>
    tile.store %o2, %r#0 : tensor<32x!tile.ptr<f16>, #s>
    return
  }
}

// -----

// A scan along axis 0 of a 2-D tile: rows split over lanes (1, 2), warps
// (4, 8) and, above the warps, registers (16, 32). The warp totals are one per
// block of 4 rows, so the scratch holds 64 / 4 rows x 32 columns x 4 bytes:
// 2048, not the tile's 8192.
#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 2048 : i32
// CHECK-LABEL: llvm.func @cumsum_columns
// CHECK: nvvm.shfl.sync  bfly
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @cumsum_columns(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #b>
    %x = tile.load %ps : tensor<64x32x!tile.ptr<i32>, #b>
    %c = tile.scan(%x) axis = 0 : (tensor<64x32xi32, #b>) -> tensor<64x32xi32, #b> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tile.yield %s : i32
    }
    tile.store %ps, %c : tensor<64x32x!tile.ptr<i32>, #b>
    return
  }
}
