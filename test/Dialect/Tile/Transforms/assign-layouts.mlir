// RUN: kiln-opt %s --split-input-file --tile-assign-layouts | FileCheck %s

// 1-D fp16 accesses: 8 elements (128 bits) per thread, lanes and warps along
// the row; elementwise ops, loop-carried values and the load share it.
// CHECK-DAG: #[[B8:.*]] = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @row
// CHECK: arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[B8]]>
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[B8]]>)
// CHECK: tile.arange 0 to 1024 : tensor<1024xi32, #[[B8]]>
// CHECK: tile.load {{.*}} : tensor<1024x!tile.ptr<f16>, #[[B8]]>
// CHECK: arith.extf {{.*}} : tensor<1024xf16, #[[B8]]> to tensor<1024xf32, #[[B8]]>
// CHECK: tile.sum {{.*}} : tensor<1024xf32, #[[B8]]> -> f32
module attributes {tile.num_warps = 4 : i32} {
  func.func @row(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %N: i32) -> () {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.0> : tensor<1024xf32>
    %sum = scf.for %off = %c0 to %N step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32>) : i32 {
      %ar = tile.arange 0 to 1024 : tensor<1024xi32>
      %offs = tile.splat %off : i32 -> tensor<1024xi32>
      %cols = arith.addi %offs, %ar : tensor<1024xi32>
      %p0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %p = tile.addptr %p0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %x16 = tile.load %p : tensor<1024x!tile.ptr<f16>>
      %x = arith.extf %x16 : tensor<1024xf16> to tensor<1024xf32>
      %a = arith.addf %acc, %x : tensor<1024xf32>
      scf.yield %a : tensor<1024xf32>
    }
    %s = tile.sum %sum, 0 : tensor<1024xf32> -> f32
    return
  }
}

// -----

// fp32 accesses of a 16-byte aligned pointer: 4 elements per thread (128
// bits), the rest repeats.
// CHECK-DAG: #[[B4:.*]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
// CHECK-LABEL: func.func @fp32_8_warps
// CHECK: tile.load {{.*}} : tensor<2048x!tile.ptr<f32>, #[[B4]]>
module attributes {tile.num_warps = 8 : i32} {
  func.func @fp32_8_warps(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %ar = tile.arange 0 to 2048 : tensor<2048xi32>
    %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<2048x!tile.ptr<f32>>
    %p = tile.addptr %p0, %ar : tensor<2048x!tile.ptr<f32>>, tensor<2048xi32>
    %x = tile.load %p : tensor<2048x!tile.ptr<f32>>
    tile.store %p, %x : tensor<2048x!tile.ptr<f32>>
    return
  }
}

// -----

// 2-D tiles: `cols` feeds cols[None, :] and a 1-D store of the axis-0
// reduction, so it becomes the dim-0 slice of the 2-D layout; `rows` feeds
// rows[:, None] and becomes the dim-1 slice. No conversion is needed.
// CHECK-DAG: #[[P:blocked.*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[S0:slice.*]] = #tile.slice<dim = 0, parent = #[[P]]>
// CHECK-DAG: #[[S1:slice.*]] = #tile.slice<dim = 1, parent = #[[P]]>
// CHECK-LABEL: func.func @tile2d
// CHECK: tile.arange 0 to 128 : tensor<128xi32, #[[S0]]>
// CHECK: tile.arange 0 to 32 : tensor<32xi32, #[[S1]]>
// CHECK: tile.expand_dims {{.*}}, 1 : tensor<32xi32, #[[S1]]> -> tensor<32x1xi32, #[[P]]>
// CHECK: tile.expand_dims {{.*}}, 0 : tensor<128xi32, #[[S0]]> -> tensor<1x128xi32, #[[P]]>
// CHECK: tile.broadcast {{.*}} : tensor<32x1xi32, #[[P]]> -> tensor<32x128xi32, #[[P]]>
// CHECK: tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>, #[[P]]>
// CHECK: tile.sum {{.*}}, 0 : tensor<32x128xf32, #[[P]]> -> tensor<128xf32, #[[S0]]>
// CHECK: tile.store {{.*}} : tensor<128x!tile.ptr<f32>, #[[S0]]>
// CHECK-NOT: tile.convert_layout
module attributes {tile.num_warps = 4 : i32} {
  func.func @tile2d(%DW: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %OUT: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %N: i32 {tile.divisibility = 16 : i32}) {
    %cols = tile.arange 0 to 128 : tensor<128xi32>
    %rows = tile.arange 0 to 32 : tensor<32xi32>
    %r2 = tile.expand_dims %rows, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %Ns = tile.splat %N : i32 -> tensor<32x1xi32>
    %ro = arith.muli %r2, %Ns : tensor<32x1xi32>
    %c2 = tile.expand_dims %cols, 0 : tensor<128xi32> -> tensor<1x128xi32>
    %rob = tile.broadcast %ro : tensor<32x1xi32> -> tensor<32x128xi32>
    %cob = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
    %offs = arith.addi %rob, %cob : tensor<32x128xi32>
    %p0 = tile.splat %DW : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
    %p = tile.addptr %p0, %offs : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %v16 = tile.load %p : tensor<32x128x!tile.ptr<f16>>
    %v = arith.extf %v16 : tensor<32x128xf16> to tensor<32x128xf32>
    %s = tile.sum %v, 0 : tensor<32x128xf32> -> tensor<128xf32>
    %o0 = tile.splat %OUT : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %o = tile.addptr %o0, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %o, %s : tensor<128x!tile.ptr<f32>>
    return
  }
}

// -----

// Reducing along axis 1 gives the dim-1 slice; adding it to a tensor that
// is also used as x[None, :] (the dim-0 slice) cannot share a layout: the
// conflicting operand gets a conversion. (%x is computed, not index math:
// index math would get a copy per use instead, see @untied below.)
// CHECK-LABEL: func.func @conflict
// CHECK: %[[S:.*]] = tile.sum %{{.*}}, 1 : tensor<16x16xf32, #[[P:blocked.*]]> -> tensor<16xf32, #[[S1:slice.*]]>
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} : tensor<16xf32, #[[S0:slice.*]]> -> tensor<16xf32, #[[S1]]>
// CHECK: arith.addf %[[S]], %[[C]] : tensor<16xf32, #[[S1]]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @conflict(%t: f32) {
    %x0 = tile.splat %t : f32 -> tensor<16xf32>
    %x = arith.mulf %x0, %x0 : tensor<16xf32>
    %x2 = tile.expand_dims %x, 0 : tensor<16xf32> -> tensor<1x16xf32>
    %b = tile.broadcast %x2 : tensor<1x16xf32> -> tensor<16x16xf32>
    %s = tile.sum %b, 1 : tensor<16x16xf32> -> tensor<16xf32>
    %y = arith.addf %s, %x : tensor<16xf32>
    tile.print "y" %y : tensor<16xf32>
    return
  }
}

// -----

// Fewer elements than threads: lanes and warps past the tensor replicate.
// CHECK-DAG: #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @small
module attributes {tile.num_warps = 4 : i32} {
  func.func @small(%X: !tile.ptr<f32>) {
    %ar = tile.arange 0 to 64 : tensor<64xi32>
    %p0 = tile.splat %X : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %p = tile.addptr %p0, %ar : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %p : tensor<64x!tile.ptr<f32>>
    %s = tile.sum %x, 0 : tensor<64xf32> -> f32
    return
  }
}

