// RUN: kiln-opt %s --tile-to-llvm | FileCheck %s

// Scalar arith ops with a flag-free LLVM twin are rewritten in one walk
// ahead of the conversion driver (ScalarArithToLLVM.cpp); ops with
// overflow or fast-math flags keep them through the upstream patterns, and
// f32 division stays div.full. Folds happen as in the driver.
// CHECK-LABEL: llvm.func @scalars
// CHECK: %[[A:.*]] = llvm.add %arg0, %arg1 : i32
// CHECK: %[[S:.*]] = llvm.add %[[A]], %arg1 overflow<nsw> : i32
// CHECK: %[[M:.*]] = llvm.mul %[[S]], %arg0 : i32
// CHECK: %[[R:.*]] = llvm.lshr %[[M]], %{{.*}} : i32
// CHECK: %[[C:.*]] = llvm.icmp "slt" %[[R]], %arg1 : i32
// CHECK: %[[E:.*]] = llvm.sext %[[R]] : i32 to i64
// CHECK: %[[F:.*]] = llvm.fadd %arg2, %arg3 : f32
// CHECK: %[[G:.*]] = llvm.fmul %[[F]], %arg3 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK: %[[D:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%[[G]], %arg3) : (f32, f32) -> f32
// CHECK: %[[X:.*]] = llvm.fcmp "olt" %[[D]], %arg2 : f32
// CHECK: %[[Y:.*]] = llvm.select %[[C]], %[[D]], %arg2 : i1, f32
// CHECK: %[[H:.*]] = llvm.fptrunc %[[Y]] : f32 to f16
// CHECK-NOT: arith.
module attributes {tile.num_warps = 1 : i32} {
  func.func @scalars(%i: i32, %j: i32, %x: f32, %y: f32, %out: !tile.ptr<f16>,
                     %outi: !tile.ptr<i64>, %outb: !tile.ptr<i1>) {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %a = arith.addi %i, %j : i32
    %s = arith.addi %a, %j overflow<nsw> : i32
    %m = arith.muli %s, %i : i32
    %m0 = arith.addi %m, %c0 : i32
    %r = arith.shrui %m0, %c3 : i32
    %c = arith.cmpi slt, %r, %j : i32
    %e = arith.extsi %r : i32 to i64
    %f = arith.addf %x, %y : f32
    %g = arith.mulf %f, %y fastmath<fast> : f32
    %d = arith.divf %g, %y : f32
    %lt = arith.cmpf olt, %d, %x : f32
    %sel = arith.select %c, %d, %x : f32
    %h = arith.truncf %sel : f32 to f16
    tile.store %out, %h : !tile.ptr<f16>
    tile.store %outi, %e : !tile.ptr<i64>
    tile.store %outb, %lt : !tile.ptr<i1>
    return
  }
}
