// RUN: kiln-opt %s --split-input-file --tile-rebase-copy-pointers | FileCheck %s
// A loop with copies: each pointer tensor a copy reads and the loop advances
// by a loop-invariant splat (a constant, or a splat of a scalar from outside:
// sign-extended) is carried as one i64 offset on its initial value; the
// result read after the loop is rebuilt from the final offset. A step that
// changes in the loop, and a pointer only a load reads, stay carried.

// CHECK-LABEL: func.func @k(
// CHECK-SAME: %[[BASE:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32, %[[STRIDE:.*]]: i32)
// CHECK: %[[P:.*]] = tile.splat %[[BASE]] : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[S64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[R:.*]]:4 = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[B:.*]] = %[[P]], %[[C:.*]] = %[[P]], %[[OA:.*]] = %[[ZERO]], %[[OD:.*]] = %[[ZERO]])
// CHECK-SAME: -> (tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, i64, i64)
// CHECK-NEXT: %[[SA:.*]] = tile.splat %[[OA]] : i64 -> tensor<16x64xi64>
// CHECK-NEXT: %[[PA:.*]] = tile.addptr %[[P]], %[[SA]] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi64>
// CHECK-NEXT: tile.async_copy %[[PA]], mask
// CHECK-NEXT: tile.async_copy %[[B]], mask
// CHECK-NEXT: tile.load %[[C]]
// CHECK-NEXT: %[[SD:.*]] = tile.splat %[[OD]] : i64 -> tensor<16x64xi64>
// CHECK-NEXT: %[[PD:.*]] = tile.addptr %[[P]], %[[SD]]
// CHECK-NEXT: tile.async_copy %[[PD]], mask
// CHECK: %[[B1:.*]] = tile.addptr %[[B]], %{{.*}} : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
// CHECK-NEXT: %[[C1:.*]] = tile.addptr %[[C]], %{{.*}} : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
// CHECK-NEXT: %[[OA1:.*]] = arith.addi %[[OA]], %[[C64]] : i64
// CHECK-NEXT: %[[OD1:.*]] = arith.addi %[[OD]], %[[S64]] : i64
// CHECK-NEXT: scf.yield %[[B1]], %[[C1]], %[[OA1]], %[[OD1]]
// CHECK: %[[SR:.*]] = tile.splat %[[R]]#2 : i64 -> tensor<16x64xi64>
// CHECK-NEXT: %[[PR:.*]] = tile.addptr %[[P]], %[[SR]]
// CHECK-NEXT: return %[[PR]]
module {
  func.func @k(%base: !tile.ptr<f16>, %n: i32, %stride: i32) -> tensor<16x64x!tile.ptr<f16>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<16x64xi32>
    %p1 = tile.splat %base : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
    %s = tile.splat %stride : i32 -> tensor<16x64xi32>
    %m = arith.constant dense<true> : tensor<16x64xi1>
    %slots = tile.local_alloc : <2x16x64xf16>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p1, %b = %p1, %c = %p1, %d = %p1) -> (tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>) : i32 {
      tile.async_copy %a, mask %m into %slots[%c0] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      tile.async_copy %b, mask %m into %slots[%c1] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      %x = tile.load %c : tensor<16x64x!tile.ptr<f16>>
      tile.async_copy %d, mask %m into %slots[%c1] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      %a1 = tile.addptr %a, %step : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      %si = tile.splat %i : i32 -> tensor<16x64xi32>
      %b1 = tile.addptr %b, %si : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      %c1p = tile.addptr %c, %s : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      %d1 = tile.addptr %d, %s : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      scf.yield %a1, %b1, %c1p, %d1 : tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>
    }
    return %r#0 : tensor<16x64x!tile.ptr<f16>>
  }
}

// -----

// No copies in the loop: nothing changes.
// CHECK-LABEL: func.func @no_copies(
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x64x!tile.ptr<f16>>)
// CHECK-NOT: i64
// CHECK: return
module {
  func.func @no_copies(%base: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<16x64xi32>
    %p = tile.splat %base : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p) -> (tensor<16x64x!tile.ptr<f16>>) : i32 {
      %x = tile.load %a : tensor<16x64x!tile.ptr<f16>>
      %a1 = tile.addptr %a, %step : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      scf.yield %a1 : tensor<16x64x!tile.ptr<f16>>
    }
    return
  }
}

// -----

// The step computed in the loop from loop-invariant values (tutorial 03's
// `b_ptrs += BLOCK_SIZE_K * stride_bk` with a runtime stride): its scalar
// ops move before the loop and the pointer is rebased as above. A step
// computed from the induction variable stays in the loop, its pointer
// carried; so does one divided by a runtime value (not speculatable: the
// loop may not run, and the division may be by zero).
// CHECK-LABEL: func.func @runtime_step(
// CHECK-SAME: %[[BASE:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32, %[[STRIDE:.*]]: i32)
// CHECK: %[[STEP:.*]] = arith.muli %[[STRIDE]], %{{.*}} : i32
// CHECK: %[[S64:.*]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[B:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[O:.*]] = %{{.*}}) -> (tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, i64)
// CHECK-NEXT: %[[SO:.*]] = tile.splat %[[O]] : i64 -> tensor<16x64xi64>
// CHECK-NEXT: %[[PO:.*]] = tile.addptr %{{.*}}, %[[SO]]
// CHECK-NEXT: tile.async_copy %[[PO]], mask
// CHECK-NEXT: tile.async_copy %[[B]], mask
// CHECK-NEXT: tile.async_copy %[[C]], mask
// CHECK-NOT: arith.muli %[[STRIDE]]
// CHECK: %[[IS:.*]] = arith.muli %[[I]], %[[STRIDE]] : i32
// CHECK: arith.divsi %{{.*}}, %[[STRIDE]] : i32
// CHECK: %[[O1:.*]] = arith.addi %[[O]], %[[S64]] : i64
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %[[O1]]
module {
  func.func @runtime_step(%base: !tile.ptr<f16>, %n: i32, %stride: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %p = tile.splat %base : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
    %m = arith.constant dense<true> : tensor<16x64xi1>
    %slots = tile.local_alloc : <2x16x64xf16>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p, %b = %p, %c = %p) -> (tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>) : i32 {
      tile.async_copy %a, mask %m into %slots[%c0] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      tile.async_copy %b, mask %m into %slots[%c1] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      tile.async_copy %c, mask %m into %slots[%c1] : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1> -> <2x16x64xf16>
      %step = arith.muli %stride, %c32 : i32
      %s = tile.splat %step : i32 -> tensor<16x64xi32>
      %a1 = tile.addptr %a, %s : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      %is = arith.muli %i, %stride : i32
      %si = tile.splat %is : i32 -> tensor<16x64xi32>
      %b1 = tile.addptr %b, %si : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      %q = arith.divsi %c32, %stride : i32
      %sq = tile.splat %q : i32 -> tensor<16x64xi32>
      %c1p = tile.addptr %c, %sq : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
      scf.yield %a1, %b1, %c1p : tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>, tensor<16x64x!tile.ptr<f16>>
    }
    return
  }
}
