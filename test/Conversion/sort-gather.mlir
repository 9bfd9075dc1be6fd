// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// tile.sort of 256 f32 over 2 warps, 4 per thread: position bits 0-1 are
// registers, 2-6 lanes, 7 the warp. 36 compare-exchange steps: register
// steps read another register, the 20 + 5 lane steps are shuffles (x4
// registers), the one warp step (stage 8, bit 7) goes through shared memory
// (256 x 4 bytes).
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 1024 : i32
// CHECK-LABEL: llvm.func @sort
// CHECK-COUNT-60: nvvm.shfl.sync  bfly
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-COUNT-20: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 2 : i32} {
  func.func @sort(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
    %i = tile.arange 0 to 256 : tensor<256xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    %x = tile.load %ptrs : tensor<256x!tile.ptr<f32>, #b>
    %s = tile.sort %x descending : tensor<256xf32, #b>
    tile.store %ptrs, %s : tensor<256x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// tile.sort merge (tl.bitonic_merge) of the same 256 f32: the last stage
// alone, its 8 steps from bit 7 (the warp: shared memory) down to bit 0
// (registers); bits 6-2 are 5 lane steps of 4 shuffles each.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK-LABEL: llvm.func @merge
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-COUNT-20: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 2 : i32} {
  func.func @merge(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
    %i = tile.arange 0 to 256 : tensor<256xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    %x = tile.load %ptrs : tensor<256x!tile.ptr<f32>, #b>
    %s = tile.sort %x merge : tensor<256xf32, #b>
    tile.store %ptrs, %s : tensor<256x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// An unsigned i8 sort within one warp (32 lanes x 1): only shuffles of the
// bytes widened to 32 bits; comparisons are unsigned; no shared memory.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 0 : i32
// CHECK-LABEL: llvm.func @sort_u8
// CHECK: nvvm.shfl.sync  bfly
// CHECK: llvm.icmp "ugt" {{.*}} : i8
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @sort_u8(%p: !tile.ptr<i8>) {
    %ps = tile.splat %p : !tile.ptr<i8> -> tensor<32x!tile.ptr<i8>, #b>
    %i = tile.arange 0 to 32 : tensor<32xi32, #b>
    %ptrs = tile.addptr %ps, %i : tensor<32x!tile.ptr<i8>, #b>, tensor<32xi32, #b>
    %x = tile.load %ptrs : tensor<32x!tile.ptr<i8>, #b>
    %s = tile.sort %x unsigned : tensor<32xi8, #b>
    tile.store %ptrs, %s : tensor<32x!tile.ptr<i8>, #b>
    return
  }
}

// -----

// tile.gather along axis 1 of a 16x64 f16 source: the source is staged in
// shared memory (16 x 64 x 2 bytes), each result element loads source
// element row * 64 + (index & 63).
#b = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 2048 : i32
// CHECK-LABEL: llvm.func @gather
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store {{.*}} : i16, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.and {{.*}} : i32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i16
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @gather(%xs: f16, %is: i32, %p: !tile.ptr<f16>) {
    %x = tile.splat %xs : f16 -> tensor<16x64xf16, #b>
    %i = tile.splat %is : i32 -> tensor<16x32xi32, #b>
    %g = tile.gather %x, %i, 1 : tensor<16x64xf16, #b>, tensor<16x32xi32, #b> -> tensor<16x32xf16, #b>
    %s = tile.sum %g, 1 : tensor<16x32xf16, #b> -> tensor<16xf16, #tile.slice<dim = 1, parent = #b>>
    %t = tile.sum %s, 0 : tensor<16xf16, #tile.slice<dim = 1, parent = #b>> -> f16
    tile.store %p, %t : !tile.ptr<f16>
    return
  }
}

// -----

// tile.histogram of 256 i32 into 16 bins with a mask: zeroed bins, one
// shared atomic add per element (0 where the mask or the range excludes
// it), bins read back in the result layout.
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#r = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 64 : i32
// CHECK-LABEL: llvm.func @histogram
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.icmp "ult"
// CHECK: llvm.atomicrmw add {{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: llvm.atomicrmw add {{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @histogram(%xs: i32, %ms: i1, %p: !tile.ptr<i32>) {
    %x = tile.splat %xs : i32 -> tensor<256xi32, #b>
    %m = tile.splat %ms : i1 -> tensor<256xi1, #b>
    %h = tile.histogram %x mask %m : tensor<256xi1, #b> : tensor<256xi32, #b> -> tensor<16xi32, #r>
    %s = tile.sum %h, 0 : tensor<16xi32, #r> -> i32
    tile.store %p, %s : !tile.ptr<i32>
    return
  }
}
