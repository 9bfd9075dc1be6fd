// RUN: kiln-opt %s --tile-assign-layouts | FileCheck %s

// Index math shared by two accesses gets a copy per use, so that each
// access keeps its own coalesced layout: `offs[None, :]` feeds a pointer
// contiguous along dim 1 (Y: row-major) and one contiguous along dim 0
// (XT: unit stride down a column). Tied, one of the two would be strided.
// CHECK-DAG: #[[ROW:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], {{.*}} order = [1, 0]>
// CHECK-DAG: #[[COL:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 1], {{.*}} order = [0, 1]>
// CHECK-LABEL: func.func @untied
// CHECK: tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[COL]]>
// CHECK: tile.store %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[ROW]]>
// CHECK-NOT: tile.convert_layout %{{.*}} : tensor<64x64x!tile.ptr
module attributes {tile.num_warps = 4 : i32} {
  func.func @untied(%XT: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %Y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %ld: i32 {tile.divisibility = 16 : i32}) {
    %offs = tile.arange 0 to 64 : tensor<64xi32>
    %row = tile.expand_dims %offs, 0 : tensor<64xi32> -> tensor<1x64xi32>
    %col = tile.expand_dims %offs, 1 : tensor<64xi32> -> tensor<64x1xi32>
    %lds = tile.splat %ld : i32 -> tensor<1x64xi32>
    %rowT = arith.muli %row, %lds : tensor<1x64xi32>
    %ldc = tile.splat %ld : i32 -> tensor<64x1xi32>
    %colY = arith.muli %col, %ldc : tensor<64x1xi32>
    %a0 = tile.broadcast %rowT : tensor<1x64xi32> -> tensor<64x64xi32>
    %a1 = tile.broadcast %col : tensor<64x1xi32> -> tensor<64x64xi32>
    %oT = arith.addi %a0, %a1 : tensor<64x64xi32>
    %b0 = tile.broadcast %row : tensor<1x64xi32> -> tensor<64x64xi32>
    %b1 = tile.broadcast %colY : tensor<64x1xi32> -> tensor<64x64xi32>
    %oY = arith.addi %b0, %b1 : tensor<64x64xi32>
    %pT0 = tile.splat %XT : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %pT = tile.addptr %pT0, %oT : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %v = tile.load %pT : tensor<64x64x!tile.ptr<f32>>
    %pY0 = tile.splat %Y : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
    %pY = tile.addptr %pY0, %oY : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
    %w = arith.addf %v, %v : tensor<64x64xf32>
    tile.store %pY, %w : tensor<64x64x!tile.ptr<f32>>
    return
  }
}
