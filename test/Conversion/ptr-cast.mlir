// RUN: kiln-opt %s --tile-to-llvm | FileCheck %s

// tile.ptr_cast: int64 -> pointer is llvm.inttoptr per element, pointer ->
// int64 llvm.ptrtoint, pointer -> pointer of another element type the same
// value (LLVM pointers are opaque).
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
// CHECK-LABEL: llvm.func @casts
// CHECK-COUNT-1: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NOT: llvm.inttoptr
// CHECK-COUNT-1: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK-NOT: llvm.ptrtoint
module attributes {tile.num_warps = 2 : i32} {
  func.func @casts(%A: !tile.ptr<i64>, %Y: !tile.ptr<i64>) {
    %cols = tile.arange 0 to 64 : tensor<64xi32, #b>
    %a0 = tile.splat %A : !tile.ptr<i64> -> tensor<64x!tile.ptr<i64>, #b>
    %ap = tile.addptr %a0, %cols : tensor<64x!tile.ptr<i64>, #b>, tensor<64xi32, #b>
    %addr = tile.load %ap : tensor<64x!tile.ptr<i64>, #b>
    %p = tile.ptr_cast %addr : tensor<64xi64, #b> -> tensor<64x!tile.ptr<f16>, #b>
    %q = tile.ptr_cast %p : tensor<64x!tile.ptr<f16>, #b> -> tensor<64x!tile.ptr<i64>, #b>
    %back = tile.ptr_cast %q : tensor<64x!tile.ptr<i64>, #b> -> tensor<64xi64, #b>
    %y0 = tile.splat %Y : !tile.ptr<i64> -> tensor<64x!tile.ptr<i64>, #b>
    %yp = tile.addptr %y0, %cols : tensor<64x!tile.ptr<i64>, #b>, tensor<64xi32, #b>
    tile.store %yp, %back : tensor<64x!tile.ptr<i64>, #b>
    return
  }
}
