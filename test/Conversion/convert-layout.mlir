// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// Different threads own the elements: every thread writes its elements to
// shared memory by index, a barrier, and reads the ones it owns in the new
// layout. A barrier before the writes protects earlier readers of the
// scratch area.
#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK: tile.shared_bytes = 512 : i32
// CHECK-LABEL: llvm.func @exchange
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
module attributes {tile.num_warps = 1 : i32} {
  func.func @exchange(%p: !tile.ptr<f32>) {
    %cols = tile.arange 0 to 128 : tensor<128xi32, #a>
    %f = arith.sitofp %cols : tensor<128xi32, #a> to tensor<128xf32, #a>
    %c = tile.convert_layout %f : tensor<128xf32, #a> -> tensor<128xf32, #b>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #b>
    tile.store %p0, %c : tensor<128x!tile.ptr<f32>, #b>
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
