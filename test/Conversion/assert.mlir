// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// tile.assert: each thread ORs the negations of its condition elements and,
// when one is false, calls CUDA's __assertfail(message, file, line, function,
// charSize = 1) with the op's .py position and the kernel's name.
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-DAG: llvm.mlir.global internal constant @kiln_assert_{{[0-9]+}}("x must be positive\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_assert_{{[0-9]+}}("kern.py\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_assert_{{[0-9]+}}("check\00")
// CHECK-LABEL: llvm.func @check
// CHECK: %[[T:[^ ]+]] = llvm.mlir.constant(true) : i1
// CHECK: %[[N0:[^ ]+]] = llvm.xor %{{.*}}, %[[T]] : i1
// CHECK: %[[N1:[^ ]+]] = llvm.xor %{{.*}}, %{{.*}} : i1
// CHECK: %[[ANY:[^ ]+]] = llvm.or %[[N0]], %[[N1]] : i1
// CHECK: llvm.cond_br %[[ANY]]
// CHECK: %[[LINE:[^ ]+]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: %[[ONE:[^ ]+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @__assertfail(%{{[^,]+}}, %{{[^,]+}}, %[[LINE]], %{{[^,]+}}, %[[ONE]])
module attributes {tile.num_warps = 1 : i32} {
  func.func @check(%v: i32) {
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %v, %z : i32
    %t = tile.splat %c : i1 -> tensor<64xi1, #b>
    tile.assert %t, "x must be positive" : tensor<64xi1, #b> loc("kern.py":12:5)
    return
  }
}

// -----

// A scalar condition: one check per thread.
// CHECK-LABEL: llvm.func @scalar
// CHECK: llvm.cond_br
// CHECK: llvm.call @__assertfail
module attributes {tile.num_warps = 1 : i32} {
  func.func @scalar(%c: i1) {
    tile.assert %c, "" : i1
    return
  }
}
