// RUN: kiln-opt %s --tile-to-llvm | FileCheck %s

// tile.print with `hex`: the bits of each value zero-padded to its width, as
// Triton's device_print(..., hex=True); floats are bitcast, narrow values
// zero-extended to 32 bits, 64-bit values printed with `ll`.
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) f 0x%08x\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) h 0x%04x\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) l 0x%016llx\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @kiln_fmt_{{[0-9]+}}("pid (%d, %d, %d) b 0x%02x\0A\00")
// CHECK-LABEL: llvm.func @hex
// The 64-bit value keeps its width in the argument buffer.
// CHECK: llvm.alloca {{.*}} x !llvm.struct<(i32, i32, i32, i64)>
// CHECK: llvm.bitcast %{{.*}} : f32 to i32
// CHECK: llvm.bitcast %{{.*}} : f16 to i16
// CHECK: llvm.zext %{{.*}} : i16 to i32
// CHECK: llvm.zext %{{.*}} : i8 to i32
module attributes {tile.num_warps = 1 : i32} {
  func.func @hex(%f: f32, %h: f16, %l: i64, %b: i8) {
    tile.print "f" hex %f : f32
    tile.print "h" hex %h : f16
    tile.print "l" hex %l : i64
    tile.print "b" hex %b : i8
    return
  }
}
