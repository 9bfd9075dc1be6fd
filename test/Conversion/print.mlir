// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// A tensor prints one line per owned element (the first copy only) through
// vprintf, with the program id and the element's index; a scalar prints
// once, from thread 0. Floats are promoted to double as C varargs are.
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) idx (%d) x %f\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) n %d\0A\00")
// CHECK-LABEL: llvm.func @print
// CHECK: llvm.alloca {{.*}} x !llvm.struct<(i32, i32, i32, i32, f64)>
// CHECK: llvm.fpext %{{.*}} : f32 to f64
// CHECK: llvm.call @vprintf
// CHECK: llvm.fpext %{{.*}} : f32 to f64
// CHECK: llvm.call @vprintf
// CHECK: llvm.icmp "eq"
// CHECK: llvm.cond_br
// CHECK: llvm.call @vprintf
module attributes {tile.num_warps = 1 : i32} {
  func.func @print(%v: f32, %n: i32) {
    %t = tile.splat %v : f32 -> tensor<64xf32, #b>
    tile.print "x" %t : tensor<64xf32, #b>
    tile.print "n" %n : i32
    return
  }
}
