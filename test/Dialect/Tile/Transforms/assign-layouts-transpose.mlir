// RUN: kiln-opt %s --split-input-file --tile-assign-layouts --tile-remove-layout-conversions | FileCheck %s

// Issue 9's transpose defect: bench/corpus/layout.py batched_transpose_kernel
// (fp16, BLOCK_M = BLOCK_N = 32, every int :16) loads a tile contiguous
// along dimension 1 and stores it with swapped strides, contiguous along
// dimension 0. Each access keeps the layout its own pointers coalesce in:
// the load row-major with 8 halves (16 bytes) per thread, the store
// column-major with 8 halves per thread, and exactly one conversion of the
// loaded values between them (its pointers and mask are recomputed in the
// store's layout). One shared layout made the stores (or the loads) of a
// warp touch 32 rows each, 5.7-10x slower than Triton.
// CHECK-DAG: #[[ROW:.*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COL:.*]] = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @batched_transpose_kernel
// CHECK-NOT: tile.convert_layout
// CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<32x32x!tile.ptr<f16>, #[[ROW]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[XT:.*]] = tile.convert_layout %[[X]] : tensor<32x32xf16, #[[ROW]]> -> tensor<32x32xf16, #[[COL]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %{{.*}}, %[[XT]], mask %{{.*}} : tensor<32x32x!tile.ptr<f16>, #[[COL]]>
// CHECK-NOT: tile.convert_layout
module attributes {tile.arch = "sm_90", tile.num_warps = 4 : i32} {
  func.func @batched_transpose_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.name = "X"}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.name = "Y"}, %arg2: i32 {tile.divisibility = 16 : i32, tile.name = "M"}, %arg3: i32 {tile.divisibility = 16 : i32, tile.name = "N"}, %arg4: i32 {tile.divisibility = 16 : i32, tile.name = "stride_xb"}, %arg5: i32 {tile.divisibility = 16 : i32, tile.name = "stride_xm"}, %arg6: i32 {tile.divisibility = 16 : i32, tile.name = "stride_yb"}, %arg7: i32 {tile.divisibility = 16 : i32, tile.name = "stride_ym"}) {
    %0 = tile.program_id 2
    %1 = tile.program_id 0
    %c32_i32 = arith.constant 32 : i32
    %2 = arith.muli %1, %c32_i32 : i32
    %3 = tile.arange 0 to 32 : tensor<32xi32>
    %4 = tile.splat %2 : i32 -> tensor<32xi32>
    %5 = arith.addi %4, %3 : tensor<32xi32>
    %6 = tile.program_id 1
    %c32_i32_0 = arith.constant 32 : i32
    %7 = arith.muli %6, %c32_i32_0 : i32
    %8 = tile.arange 0 to 32 : tensor<32xi32>
    %9 = tile.splat %7 : i32 -> tensor<32xi32>
    %10 = arith.addi %9, %8 : tensor<32xi32>
    %11 = tile.expand_dims %5, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %12 = tile.splat %arg2 : i32 -> tensor<32x1xi32>
    %13 = arith.cmpi slt, %11, %12 : tensor<32x1xi32>
    %14 = tile.expand_dims %10, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %15 = tile.splat %arg3 : i32 -> tensor<1x32xi32>
    %16 = arith.cmpi slt, %14, %15 : tensor<1x32xi32>
    %17 = tile.broadcast %13 : tensor<32x1xi1> -> tensor<32x32xi1>
    %18 = tile.broadcast %16 : tensor<1x32xi1> -> tensor<32x32xi1>
    %19 = arith.andi %17, %18 : tensor<32x32xi1>
    %20 = arith.muli %0, %arg4 : i32
    %21 = tile.addptr %arg0, %20 : !tile.ptr<f16>, i32
    %22 = tile.expand_dims %5, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %23 = tile.splat %arg5 : i32 -> tensor<32x1xi32>
    %24 = arith.muli %22, %23 : tensor<32x1xi32>
    %25 = tile.splat %21 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
    %26 = tile.addptr %25, %24 : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %27 = tile.expand_dims %10, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %28 = tile.broadcast %26 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x32x!tile.ptr<f16>>
    %29 = tile.broadcast %27 : tensor<1x32xi32> -> tensor<32x32xi32>
    %30 = tile.addptr %28, %29 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    %31 = tile.load %30, mask %19 : tensor<32x32x!tile.ptr<f16>>
    %32 = arith.muli %0, %arg6 : i32
    %33 = tile.addptr %arg1, %32 : !tile.ptr<f16>, i32
    %34 = tile.expand_dims %10, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %35 = tile.splat %arg7 : i32 -> tensor<1x32xi32>
    %36 = arith.muli %34, %35 : tensor<1x32xi32>
    %37 = tile.splat %33 : !tile.ptr<f16> -> tensor<1x32x!tile.ptr<f16>>
    %38 = tile.addptr %37, %36 : tensor<1x32x!tile.ptr<f16>>, tensor<1x32xi32>
    %39 = tile.expand_dims %5, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %40 = tile.broadcast %38 : tensor<1x32x!tile.ptr<f16>> -> tensor<32x32x!tile.ptr<f16>>
    %41 = tile.broadcast %39 : tensor<32x1xi32> -> tensor<32x32xi32>
    %42 = tile.addptr %40, %41 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    tile.store %42, %31, mask %19 : tensor<32x32x!tile.ptr<f16>>
    return
  }
}

// -----

// Loads and stores that agree on the contiguous dimension keep one layout
// and no conversion (a plain 2-D copy).
// CHECK-LABEL: func.func @copy_2d
// CHECK-NOT: tile.convert_layout
// CHECK: return
module attributes {tile.arch = "sm_90", tile.num_warps = 4 : i32} {
  func.func @copy_2d(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "X"}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "Y"}, %arg2: i32 {tile.divisibility = 16 : i32, tile.name = "stride"}) {
    %0 = tile.arange 0 to 32 : tensor<32xi32>
    %1 = tile.arange 0 to 32 : tensor<32xi32>
    %2 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %3 = tile.splat %arg2 : i32 -> tensor<32x1xi32>
    %4 = arith.muli %2, %3 : tensor<32x1xi32>
    %5 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
    %6 = tile.addptr %5, %4 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %7 = tile.expand_dims %1, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %8 = tile.broadcast %6 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x32x!tile.ptr<f32>>
    %9 = tile.broadcast %7 : tensor<1x32xi32> -> tensor<32x32xi32>
    %10 = tile.addptr %8, %9 : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %11 = tile.load %10 : tensor<32x32x!tile.ptr<f32>>
    %12 = tile.expand_dims %0, 1 : tensor<32xi32> -> tensor<32x1xi32>
    %13 = tile.splat %arg2 : i32 -> tensor<32x1xi32>
    %14 = arith.muli %12, %13 : tensor<32x1xi32>
    %15 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<32x1x!tile.ptr<f32>>
    %16 = tile.addptr %15, %14 : tensor<32x1x!tile.ptr<f32>>, tensor<32x1xi32>
    %17 = tile.expand_dims %1, 0 : tensor<32xi32> -> tensor<1x32xi32>
    %18 = tile.broadcast %16 : tensor<32x1x!tile.ptr<f32>> -> tensor<32x32x!tile.ptr<f32>>
    %19 = tile.broadcast %17 : tensor<1x32xi32> -> tensor<32x32xi32>
    %20 = tile.addptr %18, %19 : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    tile.store %20, %11 : tensor<32x32x!tile.ptr<f32>>
    return
  }
}
