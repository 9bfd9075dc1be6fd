// RUN: kiln-opt %s --tile-to-llvm | FileCheck %s

// Floating-point precision follows Triton on NVIDIA GPUs (docs/backend.md):
// f32 division is div.full, sqrt is sqrt.approx.ftz (as Triton), rsqrt/exp/exp2/log/log2 use the
// approximate hardware units (exp2 flushing subnormals, as Triton's libdevice __nv_exp2f);
// f16 goes through f32; f64 division is IEEE.
// CHECK-LABEL: llvm.func @math
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%arg0) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%arg0) : (f32) -> f32
// CHECK: %[[L2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK: %[[X:.*]] = llvm.fmul %arg0, %[[L2E]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%arg0) : (f32) -> f32
// CHECK: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%arg0) : (f32) -> f32
// CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
// CHECK: llvm.fmul %[[LG]], %[[LN2]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%arg0) : (f32) -> f32
// CHECK: %[[A:.*]] = llvm.fpext %arg2 : f16 to f32
// CHECK: %[[B:.*]] = llvm.fpext %arg2 : f16 to f32
// CHECK: %[[Q:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK: llvm.fptrunc %[[Q]] : f32 to f16
// CHECK: llvm.fdiv %arg3, %arg3 : f64
module attributes {tile.num_warps = 1 : i32} {
  func.func @math(%x: f32, %y: f32, %h: f16, %d: f64, %out: !tile.ptr<f32>) {
    %0 = arith.divf %x, %y : f32
    %1 = math.sqrt %x : f32
    %2 = math.rsqrt %x : f32
    %3 = math.exp %x : f32
    %4 = math.exp2 %x : f32
    %5 = math.log %x : f32
    %6 = math.log2 %x : f32
    %7 = arith.divf %h, %h : f16
    %8 = arith.divf %d, %d : f64
    %s1 = arith.addf %0, %1 : f32
    %s2 = arith.addf %2, %3 : f32
    %s3 = arith.addf %4, %5 : f32
    %s4 = arith.addf %s1, %6 : f32
    %s5 = arith.addf %s2, %s3 : f32
    %s6 = arith.addf %s4, %s5 : f32
    %h32 = arith.extf %7 : f16 to f32
    %d32 = arith.truncf %8 : f64 to f32
    %s7 = arith.addf %s6, %h32 : f32
    %s8 = arith.addf %s7, %d32 : f32
    tile.store %out, %s8 : !tile.ptr<f32>
    return
  }
}
