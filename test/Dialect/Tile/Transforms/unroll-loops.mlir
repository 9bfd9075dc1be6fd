// RUN: kiln-opt %s --split-input-file --tile-unroll-loops | FileCheck %s
// RUN: ln-compile %S/Inputs/unroll_kernels.py --kernel unrolled --signature '*fp32:16,i32' --emit=tile | FileCheck %s --check-prefix=FRONT
// RUN: ln-compile %S/Inputs/unroll_kernels.py --kernel unrolled --signature '*fp32:16,i32' --emit=tile-layout | FileCheck %s --check-prefix=UNROLLED

// tl.range(lo, hi, 32, loop_unroll_factor=4) with bounds known at run time
// only: the loop steps 128 up to lo + 4 * 32 * floor(trips / 4), four bodies
// in order, and the rest runs in a copy of the loop from there; the marker
// goes.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[LO:.*]]: i32, %[[HI:.*]]: i32, %[[X:.*]]: f32)
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[STEP4:.*]] = arith.muli %[[C32]], %[[C4]] : i32
// CHECK: %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[LO]] to %[[UB4:.*]] step %[[STEP4]] iter_args(%[[A:.*]] = %[[X]]) -> (f32)
// CHECK-COUNT-4: arith.mulf
// CHECK: scf.yield
// CHECK-NOT: tile.loop_unroll_factor
// CHECK: %[[REST:.*]] = scf.for %{{.*}} = %[[UB4]] to %[[HI]] step %[[C32]] iter_args(%{{.*}} = %[[MAIN]]) -> (f32)
// CHECK: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: scf.yield
// CHECK: return %[[REST]]
func.func @dynamic(%lo: i32, %hi: i32, %x: f32) -> f32 {
  %c32 = arith.constant 32 : i32
  %r = scf.for %i = %lo to %hi step %c32 iter_args(%a = %x) -> (f32) : i32 {
    %n = arith.mulf %a, %a : f32
    scf.yield %n : f32
  } {tile.loop_unroll_factor = 4 : i32}
  return %r : f32
}

// -----

// Factor 1 (and no marker): nothing changes.
// CHECK-LABEL: func.func @one
// CHECK: scf.for
// CHECK-NOT: tile.loop_unroll_factor
// CHECK-NOT: scf.for
func.func @one(%lo: i32, %hi: i32, %x: f32) -> f32 {
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%a = %x) -> (f32) : i32 {
    %n = arith.mulf %a, %a : f32
    scf.yield %n : f32
  } {tile.loop_unroll_factor = 1 : i32}
  return %r : f32
}

// The frontend marks the loop; the backend unrolls it (one loop of four
// loads and stores, one of one).
// FRONT-LABEL: func.func @unrolled
// FRONT: scf.for
// FRONT: } {tile.loop_unroll_factor = 4 : i32}
// UNROLLED-LABEL: func.func @unrolled
// UNROLLED: scf.for
// UNROLLED-COUNT-4: tile.store
// UNROLLED-NOT: tile.store
// UNROLLED: scf.for
// UNROLLED: tile.store
// UNROLLED-NOT: tile.store
// UNROLLED: return
