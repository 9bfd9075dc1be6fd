// RUN: kiln-opt %s --split-input-file --tile-assign-layouts --tile-remove-layout-conversions | FileCheck %s

// A transposed tile only reduced (no memory access of its own) gets the
// permuted layout of its operand: the lowering renames registers, and the
// reduction along the transposed rows stays within threads and lanes.
// CHECK-DAG: #[[L:.*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[T:.*]] = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @trans_reduce_2d
// CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<32x64x!tile.ptr<f32>, #[[L]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[XT:.*]] = tile.trans %[[X]], [1, 0] : tensor<32x64xf32, #[[L]]> -> tensor<64x32xf32, #[[T]]>
// CHECK: tile.max %[[XT]], 1 : tensor<64x32xf32, #[[T]]>
module attributes {tile.arch = "sm_90", tile.num_warps = 4 : i32} {
  func.func @trans_reduce_2d(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "X"}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "Out"}) {
    %0 = tile.arange 0 to 32 : tensor<32xi32>
    %1 = tile.arange 0 to 64 : tensor<64xi32>
    %2 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cst = arith.constant dense<64> : tensor<32x1xi32>
    %3 = arith.muli %2, %cst : tensor<32x1xi32>
    %4 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
    %5 = tile.addptr %4, %3 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %6 = tile.expand_dims %1, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %7 = tile.broadcast %5 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %8 = tile.broadcast %6 : tensor<1x64xi32> -> tensor<32x64xi32>
    %9 = tile.addptr %7, %8 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %10 = tile.load %9 : tensor<32x64x!tile.ptr<f32>>
    %11 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %12 = tile.addptr %11, %1 : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %13 = tile.trans %10, [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
    %14 = tile.max %13, 1 : tensor<64x32xf32> -> tensor<64xf32>
    tile.store %12, %14 : tensor<64x!tile.ptr<f32>>
    return
  }
}

// -----

// join adds its minor dimension as 2 in-thread elements of the operands'
// layout, and split of such a tensor gives back the operands' layout: no
// conversion anywhere.
// CHECK-DAG: #[[J:.*]] = #tile.blocked<sizePerThread = [1, 4, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-DAG: #[[B:.*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @join_sum
// CHECK-NOT: tile.convert_layout
// CHECK: tile.join %{{.*}}, %{{.*}} : tensor<32x64xf32, #[[B]]> -> tensor<32x64x2xf32, #[[J]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.split %{{.*}} : tensor<32x64x2xf32, #[[J]]> -> tensor<32x64xf32, #[[B]]>
// CHECK-NOT: tile.convert_layout
module attributes {tile.arch = "sm_90", tile.num_warps = 4 : i32} {
  func.func @join_sum(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "X"}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "Y"}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "Out"}) {
    %0 = tile.arange 0 to 32 : tensor<32xi32>
    %1 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cst = arith.constant dense<64> : tensor<32x1xi32>
    %2 = arith.muli %1, %cst : tensor<32x1xi32>
    %3 = tile.arange 0 to 64 : tensor<64xi32>
    %4 = tile.expand_dims %3, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %5 = tile.broadcast %2 : tensor<32x1xi32> -> tensor<32x64xi32>
    %6 = tile.broadcast %4 : tensor<1x64xi32> -> tensor<32x64xi32>
    %7 = arith.addi %5, %6 : tensor<32x64xi32>
    %8 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
    %9 = tile.addptr %8, %7 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %10 = tile.load %9 : tensor<32x64x!tile.ptr<f32>>
    %11 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
    %12 = tile.addptr %11, %7 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %13 = tile.load %12 : tensor<32x64x!tile.ptr<f32>>
    %14 = tile.join %10, %13 : tensor<32x64xf32> -> tensor<32x64x2xf32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<32x64x2xf32>
    %15 = arith.mulf %14, %cst_0 : tensor<32x64x2xf32>
    %lhs, %rhs = tile.split %15 : tensor<32x64x2xf32> -> tensor<32x64xf32>
    %16 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
    %17 = tile.addptr %16, %7 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %18 = arith.subf %lhs, %rhs : tensor<32x64xf32>
    tile.store %17, %18 : tensor<32x64x!tile.ptr<f32>>
    return
  }
}

// -----

// A reshape that splits the fast dimension (64 -> 4 x 16) keeps every
// element in its thread: the result's blocked layout is the operand's seen
// in the new coordinates, and the sum over the new minor dimension stays
// within threads and lanes.
// CHECK-DAG: #[[S:.*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[R:.*]] = #tile.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-LABEL: func.func @reshape_sum
// CHECK-NOT: tile.convert_layout
// CHECK: tile.reshape %{{.*}} : tensor<32x64xf32, #[[S]]> -> tensor<32x4x16xf32, #[[R]]>
module attributes {tile.arch = "sm_90", tile.num_warps = 4 : i32} {
  func.func @reshape_sum(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "X"}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "Out"}) {
    %0 = tile.arange 0 to 32 : tensor<32xi32>
    %1 = tile.arange 0 to 64 : tensor<64xi32>
    %2 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cst = arith.constant dense<64> : tensor<32x1xi32>
    %3 = arith.muli %2, %cst : tensor<32x1xi32>
    %4 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
    %5 = tile.addptr %4, %3 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %6 = tile.expand_dims %1, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %7 = tile.broadcast %5 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x64x!tile.ptr<f32>>
    %8 = tile.broadcast %6 : tensor<1x64xi32> -> tensor<32x64xi32>
    %9 = tile.addptr %7, %8 : tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>
    %10 = tile.load %9 : tensor<32x64x!tile.ptr<f32>>
    %11 = tile.reshape %10 : tensor<32x64xf32> -> tensor<32x4x16xf32>
    %12 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %cst_0 = arith.constant dense<4> : tensor<32x1xi32>
    %13 = arith.muli %12, %cst_0 : tensor<32x1xi32>
    %14 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
    %15 = tile.addptr %14, %13 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %16 = tile.arange 0 to 4 : tensor<4xi32>
    %17 = tile.expand_dims %16, 0 : tensor<4xi32> -> tensor<1x4xi32>
    %18 = tile.broadcast %15 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x4x!tile.ptr<f32>>
    %19 = tile.broadcast %17 : tensor<1x4xi32> -> tensor<32x4xi32>
    %20 = tile.addptr %18, %19 : tensor<32x4x!tile.ptr<f32>>, tensor<32x4xi32>
    %21 = tile.sum %11, 2 : tensor<32x4x16xf32> -> tensor<32x4xf32>
    tile.store %20, %21 : tensor<32x4x!tile.ptr<f32>>
    return
  }
}
