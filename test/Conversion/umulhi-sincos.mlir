// RUN: kiln-opt %s --tile-assign-layouts --tile-to-llvm | FileCheck %s

// tl.umulhi and the Philox rounds: arith.mului_extended becomes mul.lo plus
// the NVVM mulhi intrinsic (mul.hi.u32 / mul.hi.u64 in PTX), per element for
// tensors; tl.sin / tl.cos use the approximate hardware units (no libdevice).
// CHECK-LABEL: llvm.func @hi
// CHECK: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"(%arg0, %arg0) : (i32, i32) -> i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mulhi.ull"(%arg1, %arg1) : (i64, i64) -> i64
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%arg2) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.cos.approx.f"(%arg2) : (f32) -> f32
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.mulhi.ui"
// CHECK-NOT: llvm.zext
module attributes {tile.num_warps = 1 : i32} {
  func.func @hi(%a: i32, %b: i64, %x: f32, %o32: !tile.ptr<i32>, %o64: !tile.ptr<i64>, %of: !tile.ptr<f32>) {
    %l, %h = arith.mului_extended %a, %a : i32
    %l2, %h2 = arith.mului_extended %b, %b : i64
    %s = math.sin %x : f32
    %c = math.cos %x : f32
    %r = tile.arange 0 to 64 : tensor<64xi32>
    %tl, %th = arith.mului_extended %r, %r : tensor<64xi32>
    %p = tile.splat %o32 : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
    %q = tile.addptr %p, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
    tile.store %q, %th : tensor<64x!tile.ptr<i32>>
    tile.store %o32, %h : !tile.ptr<i32>
    tile.store %o64, %h2 : !tile.ptr<i64>
    %sc = arith.addf %s, %c : f32
    tile.store %of, %sc : !tile.ptr<f32>
    return
  }
}
