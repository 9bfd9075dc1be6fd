// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// 1-D sum over 4 warps: a register tree, five butterfly shuffles, then the
// warps' partials through shared memory between two barriers; every thread
// reads all four partials.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {{{.*}}tile.shared_bytes = 16 : i32
// CHECK: llvm.mlir.global external @kiln_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sum1d
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-COUNT-3: llvm.fadd
// CHECK: nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK: llvm.fadd
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK: nvvm.barrier0
// CHECK: llvm.cond_br
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// The scalar atomic (thread 0) waits for every thread first.
// CHECK: nvvm.barrier0
// CHECK: atom.global.gpu.acq_rel.exch.b32
module attributes {tile.num_warps = 4 : i32} {
  func.func @sum1d(%x: f32, %out: !tile.ptr<f32>) {
    %t = tile.splat %x : f32 -> tensor<512xf32, #b>
    %s = tile.sum %t, 0 : tensor<512xf32, #b> -> f32
    %o = tile.atomic_rmw xchg %out, %s : !tile.ptr<f32>
    return
  }
}

// -----

// A thread's registers combine one after the other in register order, as
// Triton's do (a balanced tree rounded sums differently and fused only its
// leaves' products into FMAs), then the lanes from the highest bit down.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: llvm.func @in_thread_order
// CHECK: %[[A:.*]] = llvm.fadd %arg0, %arg0 : f32
// CHECK-NEXT: %[[B:.*]] = llvm.fadd %[[A]], %arg0 : f32
// CHECK-NEXT: %[[C:.*]] = llvm.fadd %[[B]], %arg0 : f32
// CHECK: %[[S16:.*]] = nvvm.shfl.sync  bfly %{{.*}}, %[[C]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT: llvm.fadd %[[C]], %[[S16]] : f32
// Runs longer than 16 registers take a balanced tree (pairs first).
#l = #tile.blocked<sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: llvm.func @long_run_tree
// CHECK: %[[P:.*]] = llvm.fadd %arg0, %arg0 : f32
// CHECK-NEXT: %[[Q:.*]] = llvm.fadd %arg0, %arg0 : f32
module attributes {tile.num_warps = 1 : i32} {
  func.func @in_thread_order(%x: f32) -> () {
    %t = tile.splat %x : f32 -> tensor<128xf32, #b>
    %s = tile.sum %t, 0 : tensor<128xf32, #b> -> f32
    tile.print "s" %s : f32
    return
  }
  func.func @long_run_tree(%x: f32) -> () {
    %t = tile.splat %x : f32 -> tensor<1024xf32, #l>
    %s = tile.sum %t, 0 : tensor<1024xf32, #l> -> f32
    tile.print "s" %s : f32
    return
  }
}

// -----

// Butterfly distances are the lane bits that lie on the reduced axis:
// lanes 16, 8, 4, 2 and 1 for a 1-D tensor, the highest first as in Triton
// (the same rounding for sums).
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: llvm.func @shuffle_distances
// CHECK: %[[CLAMP:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: nvvm.shfl.sync  bfly %[[M]], %arg0, %[[SIXTEEN]], %[[CLAMP]] : f32 -> f32
// CHECK: llvm.intr.maxnum
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[EIGHT]], %{{.*}} : f32 -> f32
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[FOUR]], %{{.*}} : f32 -> f32
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[TWO]], %{{.*}} : f32 -> f32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[ONE]], %{{.*}} : f32 -> f32
// One warp: no shared memory, no barrier.
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32} {
  func.func @shuffle_distances(%x: f32) -> () {
    %t = tile.splat %x : f32 -> tensor<32xf32, #b>
    %s = tile.max %t, 0 : tensor<32xf32, #b> -> f32
    tile.print "s" %s : f32
    return
  }
}

// -----

// From sm_80 on, a 32-bit integer sum / max / min over all 32 lanes is one
// redux.sync (signed, as the combination is); floats, and integers reduced
// over some of the lanes only, keep their butterflies.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#p = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]>
// CHECK-LABEL: llvm.func @redux
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.redux.sync add %arg0, %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.redux.sync max %arg0, %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.redux.sync min %arg0, %{{.*}} : i32 -> i32
// CHECK-COUNT-5: nvvm.shfl.sync  bfly {{.*}} : f32 -> f32
// CHECK-NOT: nvvm.redux.sync
// CHECK-COUNT-4: nvvm.shfl.sync  bfly {{.*}} : i32 -> i32
// CHECK-NOT: nvvm.redux.sync
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32, tile.arch = "sm_80"} {
  func.func @redux(%x: i32, %f: f32) -> () {
    %t = tile.splat %x : i32 -> tensor<32xi32, #b>
    %s = tile.sum %t, 0 : tensor<32xi32, #b> -> i32
    %mx = tile.max %t, 0 : tensor<32xi32, #b> -> i32
    %mn = tile.min %t, 0 : tensor<32xi32, #b> -> i32
    %tf = tile.splat %f : f32 -> tensor<32xf32, #b>
    %sf = tile.sum %tf, 0 : tensor<32xf32, #b> -> f32
    %t2 = tile.splat %x : i32 -> tensor<2x16xi32, #p>
    %s2 = tile.sum %t2, 1 : tensor<2x16xi32, #p> -> tensor<2xi32, #tile.slice<dim = 1, parent = #p>>
    tile.print "s" %s, %mx, %mn, %sf : i32, i32, i32, f32
    tile.print "s2" %s2 : tensor<2xi32, #tile.slice<dim = 1, parent = #p>>
    return
  }
}

// -----

// 2-D, along axis 0 of a [32, 128] tile spread as rows over 2 lanes and 4
// warps: 4 registers combine in the thread, one butterfly across lane bit 4
// (distance 16), then the 4 warps' partial rows meet in shared memory
// ([4 x 128] f32 = 2 KiB). The result is the dim-0 slice: 8 columns each.
#p = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#s0 = #tile.slice<dim = 0, parent = #p>
// CHECK: tile.shared_bytes = 2048 : i32
// CHECK-LABEL: llvm.func @axis0
// CHECK-COUNT-24: llvm.fadd
// CHECK: %[[D16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[D16]], %{{.*}} : f32 -> f32
// CHECK-COUNT-7: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @axis0(%x: f32, %out: !tile.ptr<f32>) {
    %t = tile.splat %x : f32 -> tensor<32x128xf32, #p>
    %s = tile.sum %t, 0 : tensor<32x128xf32, #p> -> tensor<128xf32, #s0>
    %o = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #s0>
    tile.store %o, %s : tensor<128x!tile.ptr<f32>, #s0>
    return
  }
}

// -----

// Along axis 1 of the same layout: 8 registers, then lanes 1, 2, 4 and 8.
// The warps split rows, not columns: no shared memory and no barrier.
#p = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#s1 = #tile.slice<dim = 1, parent = #p>
// CHECK: tile.shared_bytes = 0 : i32
// CHECK-NOT: kiln_smem
// CHECK-LABEL: llvm.func @axis1
// CHECK-COUNT-16: nvvm.shfl.sync  bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @axis1(%x: f32, %out: !tile.ptr<f32>) {
    %t = tile.splat %x : f32 -> tensor<32x128xf32, #p>
    %s = tile.max %t, 1 : tensor<32x128xf32, #p> -> tensor<32xf32, #s1>
    %o = tile.splat %out : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>, #s1>
    tile.store %o, %s : tensor<32x!tile.ptr<f32>, #s1>
    return
  }
}

// -----

// 32 warps (16 or more partials): lane l reads partial l mod 32 once, and
// the lanes combine the partials by butterfly (distances 1 .. 16), as
// Triton does, instead of 32 loads and 31 additions in every thread.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [32], order = [0]>
// CHECK-LABEL: llvm.func @sum_32_warps
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK: llvm.return
module attributes {tile.num_warps = 32 : i32} {
  func.func @sum_32_warps(%x: f32, %out: !tile.ptr<f32>) {
    %t = tile.splat %x : f32 -> tensor<4096xf32, #b>
    %s = tile.sum %t, 0 : tensor<4096xf32, #b> -> f32
    tile.store %out, %s : !tile.ptr<f32>
    return
  }
}
