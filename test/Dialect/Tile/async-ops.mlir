// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// The shared-memory buffer type and the ops of software-pipelined loops
// round-trip.
// CHECK-LABEL: func.func @pipelined
// CHECK: %[[BUF:.*]] = tile.local_alloc : <3x64x32xf16>
// CHECK: tile.async_copy %arg0, mask %arg1 into %[[BUF]][%arg2] : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1> -> <3x64x32xf16>
// CHECK: tile.async_copy %arg0 into %[[BUF]][%arg2] : tensor<64x32x!tile.ptr<f16>> -> <3x64x32xf16>
// CHECK: tile.async_commit
// CHECK: tile.async_wait {pending = 1 : i32}
// CHECK: tile.local_load %[[BUF]][%arg2] : <3x64x32xf16> -> tensor<64x32xf16>
// CHECK: tile.local_store %{{.*}} into %[[BUF]][%arg2] : tensor<64x32xf16> -> <3x64x32xf16>
// A 1-D tile (a loop's per-K factors) is the one row of a 1 x N slot.
// CHECK-LABEL: func.func @row
// CHECK: tile.async_copy %arg0 into %{{.*}}[%arg1] : tensor<32x!tile.ptr<f32>> -> <3x1x32xf32>
// CHECK: tile.local_load %{{.*}}[%arg1] : <3x1x32xf32> -> tensor<32xf32>
// CHECK: func.func @bf16(%arg0: !tile.smem<2x16x16xbf16>)
// CHECK: func.func @fp8(%arg0: !tile.smem<3x64x32xf8E4M3FN>, %arg1: !tile.smem<3x32x64xf8E5M2, transposed>)
// CHECK-LABEL: func.func @dot_wait
// CHECK: %{{.*}}:2 = tile.dot_wait %arg0, %arg1 : tensor<64x64xf32>, tensor<64x32xf32>
func.func @pipelined(%p: tensor<64x32x!tile.ptr<f16>>, %m: tensor<64x32xi1>, %slot: i32)
    -> tensor<64x32xf16> {
  %buf = tile.local_alloc : !tile.smem<3x64x32xf16>
  tile.async_copy %p, mask %m into %buf[%slot]
      : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1> -> !tile.smem<3x64x32xf16>
  tile.async_copy %p into %buf[%slot] : tensor<64x32x!tile.ptr<f16>> -> !tile.smem<3x64x32xf16>
  tile.async_commit
  tile.async_wait {pending = 1 : i32}
  %t = tile.local_load %buf[%slot] : !tile.smem<3x64x32xf16> -> tensor<64x32xf16>
  tile.local_store %t into %buf[%slot] : tensor<64x32xf16> -> !tile.smem<3x64x32xf16>
  return %t : tensor<64x32xf16>
}
func.func @row(%p: tensor<32x!tile.ptr<f32>>, %slot: i32) -> tensor<32xf32> {
  %buf = tile.local_alloc : !tile.smem<3x1x32xf32>
  tile.async_copy %p into %buf[%slot] : tensor<32x!tile.ptr<f32>> -> !tile.smem<3x1x32xf32>
  %t = tile.local_load %buf[%slot] : !tile.smem<3x1x32xf32> -> tensor<32xf32>
  return %t : tensor<32xf32>
}
func.func @bf16(%b: !tile.smem<2x16x16xbf16>) {
  return
}
func.func @fp8(%a: !tile.smem<3x64x32xf8E4M3FN>, %b: !tile.smem<3x32x64xf8E5M2, transposed>) {
  return
}
func.func @dot_wait(%a: tensor<64x64xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r:2 = tile.dot_wait %a, %b : tensor<64x64xf32>, tensor<64x32xf32>
  return %r#1 : tensor<64x32xf32>
}

// TMA copies of descriptor blocks: a buffer with one mbarrier per slot
// (`barriers`, also with `transposed` before it), the copy from a tensor map
// at block coordinates (or into a buffer without barriers, arriving on
// another's, whose tma_init counts the arrivals), the wait on a slot's phase, the barriers' life; a
// tile.load that records its descriptor block.
// CHECK-LABEL: func.func @tma
// CHECK-SAME: !tile.smem<2x64x64xf16, transposed, barriers>
// CHECK: %[[TB:.*]] = tile.local_alloc : <3x64x64xf16, barriers>
// CHECK: tile.tma_init %[[TB]] : <3x64x64xf16, barriers>
// CHECK: tile.tma_copy %arg0[%arg2, %arg3] into %[[TB]][%arg2] if %arg4 : !llvm.ptr -> <3x64x64xf16, barriers>
// CHECK: %[[TO:.*]] = tile.local_alloc : <3x64x128xf16>
// CHECK: tile.tma_copy %arg0[%arg3, %arg2] into %[[TO]][%arg2] arrive %[[TB]] if %arg4 : !llvm.ptr -> <3x64x128xf16>, !tile.smem<3x64x64xf16, barriers>
// CHECK: tile.tma_init %[[TB]] {arrivals = 2 : i64} : <3x64x64xf16, barriers>
// CHECK: tile.tma_wait %[[TB]][%arg2], phase %arg3 : <3x64x64xf16, barriers>
// CHECK: tile.tma_inval %[[TB]] : <3x64x64xf16, barriers>
// CHECK: tile.load %arg5, mask %arg6, other %arg7 coords[%arg2, %arg3] {descArg = 5 : i64} : tensor<64x64x!tile.ptr<f16>>
func.func @tma(%map: !llvm.ptr, %t: !tile.smem<2x64x64xf16, transposed, barriers>, %s: i32, %c: i32,
               %p: i1, %ptrs: tensor<64x64x!tile.ptr<f16>>, %m: tensor<64x64xi1>, %o: tensor<64x64xf16>) {
  %b = tile.local_alloc : !tile.smem<3x64x64xf16, barriers>
  tile.tma_init %b : !tile.smem<3x64x64xf16, barriers>
  tile.tma_copy %map[%s, %c] into %b[%s] if %p : !llvm.ptr -> !tile.smem<3x64x64xf16, barriers>
  %other = tile.local_alloc : !tile.smem<3x64x128xf16>
  tile.tma_copy %map[%c, %s] into %other[%s] arrive %b if %p
      : !llvm.ptr -> !tile.smem<3x64x128xf16>, !tile.smem<3x64x64xf16, barriers>
  tile.tma_init %b {arrivals = 2} : !tile.smem<3x64x64xf16, barriers>
  tile.tma_wait %b[%s], phase %c : !tile.smem<3x64x64xf16, barriers>
  tile.tma_inval %b : !tile.smem<3x64x64xf16, barriers>
  %x = tile.load %ptrs, mask %m, other %o coords [%s, %c] {descArg = 5 : i64} : tensor<64x64x!tile.ptr<f16>>
  return
}

// A descriptor made in the kernel: the load carries it whole (base, shapes,
// row stride; descNan for NaN padding), and the tensor map the pipeliner
// builds for it in the kernel's global scratch.
// CHECK-LABEL: func.func @device_descriptor
// CHECK: tile.load %arg1, mask %arg2, other %arg3 coords[%arg4, %arg4] desc(%arg5, %arg4, %arg4, %arg6 : !tile.ptr<f16>, i32, i32, i64) {descNan} : tensor<64x64x!tile.ptr<f16>>
// CHECK: tile.tensormap_create %arg0, %arg5, %arg4, %arg4, %arg6 {box = array<i64: 64, 64>, nanFill, offset = 128 : i64, swizzle = 128 : i64} : !llvm.ptr, <f16> -> !llvm.ptr
func.func @device_descriptor(%scratch: !llvm.ptr, %ptrs: tensor<64x64x!tile.ptr<f16>>,
                             %m: tensor<64x64xi1>, %o: tensor<64x64xf16>, %c: i32,
                             %base: !tile.ptr<f16>, %stride: i64) {
  %x = tile.load %ptrs, mask %m, other %o coords [%c, %c]
      desc(%base, %c, %c, %stride : !tile.ptr<f16>, i32, i32, i64) {descNan}
      : tensor<64x64x!tile.ptr<f16>>
  %map = tile.tensormap_create %scratch, %base, %c, %c, %stride
      {offset = 128 : i64, box = array<i64: 64, 64>, swizzle = 128 : i64, nanFill}
      : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
  return
}

// TMA stores: a tile.store that records its descriptor block (host or made
// in the kernel), a slot written and stored to a tensor map, the wait for
// the stores' reads with the buffers it keeps alive.
// CHECK-LABEL: func.func @tma_store
// CHECK: tile.store %arg1, %arg2, mask %arg3 coords[%arg4, %arg4] {descArg = 1 : i64} : tensor<64x64x!tile.ptr<f16>>
// CHECK: tile.store %arg1, %arg2 coords[%arg4, %arg4] desc(%arg5, %arg4, %arg4, %arg6 : !tile.ptr<f16>, i32, i32, i64) : tensor<64x64x!tile.ptr<f16>>
// CHECK: %[[B:.*]] = tile.local_alloc : <1x64x64xf16>
// CHECK: tile.tma_store_wait 1, %[[B]] : !tile.smem<1x64x64xf16>
// CHECK: tile.local_store %arg2 into %[[B]][%arg4] : tensor<64x64xf16> -> <1x64x64xf16>
// CHECK: tile.tma_store %[[B]][%arg4] to %arg0[%arg4, %arg4] : <1x64x64xf16> -> !llvm.ptr
// CHECK: tile.tma_store_wait 0{{$}}
func.func @tma_store(%map: !llvm.ptr, %ptrs: tensor<64x64x!tile.ptr<f16>>, %v: tensor<64x64xf16>,
                     %m: tensor<64x64xi1>, %c: i32, %base: !tile.ptr<f16>, %stride: i64) {
  tile.store %ptrs, %v, mask %m coords [%c, %c] {descArg = 1 : i64} : tensor<64x64x!tile.ptr<f16>>
  tile.store %ptrs, %v coords [%c, %c] desc(%base, %c, %c, %stride : !tile.ptr<f16>, i32, i32, i64)
      : tensor<64x64x!tile.ptr<f16>>
  %b = tile.local_alloc : !tile.smem<1x64x64xf16>
  tile.tma_store_wait 1, %b : !tile.smem<1x64x64xf16>
  tile.local_store %v into %b[%c] : tensor<64x64xf16> -> !tile.smem<1x64x64xf16>
  tile.tma_store %b[%c] to %map[%c, %c] : !tile.smem<1x64x64xf16> -> !llvm.ptr
  tile.tma_store_wait 0
  return
}
