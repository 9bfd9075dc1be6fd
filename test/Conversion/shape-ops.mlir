// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// tile.trans into the permuted layout: every element stays in its thread,
// registers are only renamed (no shared memory, no barrier).
#a = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#at = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @trans_registers
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @trans_registers(%x: f32) {
    %t = tile.splat %x : f32 -> tensor<32x16xf32, #a>
    %p = tile.trans %t, [1, 0] : tensor<32x16xf32, #a> -> tensor<16x32xf32, #at>
    tile.print "p" %p : tensor<16x32xf32, #at>
    return
  }
}

// -----

// tile.trans into an unrelated layout: an exchange through shared memory,
// 32 rows of 16 fp32 padded by 2 (the cheapest in bank conflicts for these
// writes and reads; the writes become 8-byte vectors the padded rows align):
// 32 x 18 x 4 bytes.
#a = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: tile.shared_bytes = 2304 : i32
// CHECK-LABEL: llvm.func @trans_exchange
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
module attributes {tile.num_warps = 4 : i32} {
  func.func @trans_exchange(%x: f32) {
    %t = tile.splat %x : f32 -> tensor<32x16xf32, #a>
    %p = tile.trans %t, [1, 0] : tensor<32x16xf32, #a> -> tensor<16x32xf32, #a>
    tile.print "p" %p : tensor<16x32xf32, #a>
    return
  }
}

// -----

// join along an in-thread minor dimension of size 2, and split back: only
// registers.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#j = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @join_split
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @join_split(%x: i32, %y: i32) {
    %a = tile.splat %x : i32 -> tensor<128xi32, #b>
    %c = tile.splat %y : i32 -> tensor<128xi32, #b>
    %j = tile.join %a, %c : tensor<128xi32, #b> -> tensor<128x2xi32, #j>
    %l, %h = tile.split %j : tensor<128x2xi32, #j> -> tensor<128xi32, #b>
    tile.print "l" %l : tensor<128xi32, #b>
    tile.print "h" %h : tensor<128xi32, #b>
    return
  }
}

// -----

// reshape and cat that move elements between threads: exchanges.
#r = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#f = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#g = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: tile.shared_bytes = 2048 : i32
// CHECK-LABEL: llvm.func @reshape_cat
// CHECK-COUNT-2: nvvm.barrier0
// CHECK-COUNT-2: nvvm.barrier0
module attributes {tile.num_warps = 4 : i32} {
  func.func @reshape_cat(%x: f32) {
    %t = tile.splat %x : f32 -> tensor<16x32xf32, #r>
    %flat = tile.reshape %t : tensor<16x32xf32, #r> -> tensor<512xf32, #f>
    %a = tile.splat %x : f32 -> tensor<256xf32, #f>
    %c = tile.cat %a, %a : tensor<256xf32, #f> -> tensor<512xf32, #g>
    tile.print "flat" %flat : tensor<512xf32, #f>
    tile.print "c" %c : tensor<512xf32, #g>
    return
  }
}
