// RUN: kiln-opt %s --split-input-file --tile-assign-layouts | FileCheck %s

// Elements per thread along the fast dimension come from what the axis
// analysis proves about the accesses. Nothing proven (pointer alignment
// unknown): one element per thread, so that the 32 lanes of a warp read 32
// consecutive fp16 and the scalar loads coalesce.
// CHECK-DAG: #[[B1:.*]] = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @unaligned
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f16>, #[[B1]]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @unaligned(%X: !tile.ptr<f16>, %Y: !tile.ptr<f16>) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %x = tile.load %p : tensor<1024x!tile.ptr<f16>>
    %q0 = tile.splat %Y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %q = tile.addptr %q0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    tile.store %q, %x : tensor<1024x!tile.ptr<f16>>
    return
  }
}

// -----

// The load is proven 16-byte aligned (8 fp16) but the store is not: a
// thread storing 8 elements one by one would leave gaps in every warp-wide
// store, so the store's width (1) caps the layout.
// CHECK-DAG: #[[B1:.*]] = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @store_caps
// CHECK: tile.store {{.*}} : tensor<1024x!tile.ptr<f16>, #[[B1]]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @store_caps(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %Y: !tile.ptr<f16>) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %x = tile.load %p : tensor<1024x!tile.ptr<f16>>
    %q0 = tile.splat %Y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %q = tile.addptr %q0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    tile.store %q, %x : tensor<1024x!tile.ptr<f16>>
    return
  }
}

// -----

// Two loads, one proven aligned: the widest vote wins (loads of the other
// pointer are split into scalars by the lowering, but stay coalesced per
// register). A mask `cols < N` with N unknown limits the masked load to 1.
// CHECK-DAG: #[[B8:.*]] = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @widest_load
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f16>, #[[B8]]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @widest_load(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %W: !tile.ptr<f16>, %N: i32) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %Ns = tile.splat %N : i32 -> tensor<1024xi32>
    %m = arith.cmpi slt, %ar, %Ns : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %x = tile.load %p : tensor<1024x!tile.ptr<f16>>
    %w0 = tile.splat %W : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %w1 = tile.addptr %w0, %ar : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %w = tile.load %w1, mask %m : tensor<1024x!tile.ptr<f16>>
    %y = arith.addf %x, %w : tensor<1024xf16>
    tile.print "y" %y : tensor<1024xf16>
    return
  }
}

// -----

// Atomics other than a floating-point add on sm_90 are lowered one element at
// a time: one element per thread.
// CHECK-DAG: #[[B1:.*]] = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @atomic
// CHECK: tile.atomic_rmw {{.*}}#[[B1]]>
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_80"} {
  func.func @atomic(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %one = arith.constant dense<1.0> : tensor<1024xf32>
    %old = tile.atomic_rmw add %p, %one : tensor<1024x!tile.ptr<f32>>
    return
  }
}

// -----

// CHECK-DAG: #[[B1:.*]] = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @atomic_int
// CHECK: tile.atomic_rmw {{.*}}#[[B1]]>
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_90"} {
  func.func @atomic_int(%X: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<i32> -> tensor<1024x!tile.ptr<i32>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
    %old = tile.atomic_rmw add %p, %ar : tensor<1024x!tile.ptr<i32>>
    return
  }
}

// -----

// On sm_90 a floating-point add runs as a vector `atom`: an f32 add votes for
// 4 elements per thread (`atom.add.v4.f32`), an f16 add for 8
// (`atom.add.noftz.v8.f16`), as loads and stores of 16 bytes do.
// CHECK-DAG: #[[B4:.*]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[B8:.*]] = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @atomic_vector
// CHECK: tile.atomic_rmw {{.*}}#[[B4]]>
// CHECK-LABEL: func.func @atomic_vector_f16_load
// CHECK: tile.atomic_rmw {{.*}}#[[B8]]>
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_90"} {
  func.func @atomic_vector(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    %p = tile.addptr %p0, %ar : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %one = arith.constant dense<1.0> : tensor<1024xf32>
    %old = tile.atomic_rmw add %p, %one : tensor<1024x!tile.ptr<f32>>
    return
  }
  func.func @atomic_vector_f16_load(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                                    %Y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 2048 : tensor<2048xi32>
    %x0 = tile.splat %X : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>>
    %x1 = tile.addptr %x0, %ar : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
    %x = tile.load %x1 : tensor<2048x!tile.ptr<f16>>
    %y0 = tile.splat %Y : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>>
    %y1 = tile.addptr %y0, %ar : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
    %old = tile.atomic_rmw add %y1, %x : tensor<2048x!tile.ptr<f16>>
    return
  }
}

// -----

// An fp32 row only read (its sum scales a bf16 row) gets its own variable;
// it runs as wide as the bf16 accesses of the same shape, 8 contiguous
// elements per thread (two 16-byte loads), as Triton's coalescing widens a
// load to its widest sibling. The bf16 row, written, keeps its own 8.
// CHECK-DAG: #[[B8:.*]] = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @read_only_sibling
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #[[B8]]>
// CHECK: tile.reduce
// CHECK: tile.store {{.*}} : tensor<1024x!tile.ptr<bf16>, #[[B8]]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @read_only_sibling(%S: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                               %X: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %s0 = tile.splat %S : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    %s1 = tile.addptr %s0, %ar : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %s = tile.load %s1 : tensor<1024x!tile.ptr<f32>>
    %sum = tile.reduce(%s) axis = 0 : (tensor<1024xf32>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tile.yield %r : f32
    }
    %sb = arith.truncf %sum : f32 to bf16
    %scale = tile.splat %sb : bf16 -> tensor<1024xbf16>
    %x0 = tile.splat %X : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>>
    %x1 = tile.addptr %x0, %ar : tensor<1024x!tile.ptr<bf16>>, tensor<1024xi32>
    %x = tile.load %x1 : tensor<1024x!tile.ptr<bf16>>
    %y = arith.mulf %x, %scale : tensor<1024xbf16>
    tile.store %x1, %y : tensor<1024x!tile.ptr<bf16>>
    return
  }
}

// -----

// Written, the fp32 row keeps its own 16 bytes (4 elements): a wider run
// would leave gaps in every warp's store.
// CHECK-DAG: #[[B4:.*]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @written_sibling
// CHECK: tile.store {{.*}} : tensor<1024x!tile.ptr<f32>, #[[B4]]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @written_sibling(%S: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                             %X: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 1024 : tensor<1024xi32>
    %s0 = tile.splat %S : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
    %s1 = tile.addptr %s0, %ar : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %s = tile.load %s1 : tensor<1024x!tile.ptr<f32>>
    %t = arith.addf %s, %s : tensor<1024xf32>
    tile.store %s1, %t : tensor<1024x!tile.ptr<f32>>
    %x0 = tile.splat %X : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>>
    %x1 = tile.addptr %x0, %ar : tensor<1024x!tile.ptr<bf16>>, tensor<1024xi32>
    %x = tile.load %x1 : tensor<1024x!tile.ptr<bf16>>
    tile.store %x1, %x : tensor<1024x!tile.ptr<bf16>>
    return
  }
}
