// RUN: kiln-opt %s --split-input-file --tile-fold-dot-add | FileCheck %s

// c + dot(a, b, 0) (either order): the addend becomes the accumulator, the
// dot moves to the addition.
// CHECK-LABEL: func.func @fold
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[C:.*]]: tensor<32x32xf32>)
// CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]]
// CHECK-NEXT: %[[E:.*]] = tile.dot %[[A]], %[[B]], %[[D]]
// CHECK-NEXT: tile.print "d" %[[E]]
func.func @fold(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %zero : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  %s = arith.addf %c, %d : tensor<32x32xf32>
  %e = tile.dot %a, %b, %zero : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  %t = arith.addf %e, %s : tensor<32x32xf32>
  tile.print "d" %t : tensor<32x32xf32>
  return
}

// -----

// Left alone: a nonzero accumulator, a dot result used twice.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: arith.addf
func.func @kept(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %c : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  %s = arith.addf %c, %d : tensor<32x32xf32>
  %e = tile.dot %a, %b, %zero : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  %t = arith.addf %e, %e : tensor<32x32xf32>
  tile.print "s" %s : tensor<32x32xf32>
  tile.print "t" %t : tensor<32x32xf32>
  return
}

// -----

// An int8 dot's int32 sum folds too (`acc += tl.dot(a, b)`); a nonzero
// accumulator stays an addition.
// CHECK-LABEL: func.func @int8
// CHECK-SAME: (%[[I:.*]]: tensor<32x32xi8>, %[[IC:.*]]: tensor<32x32xi32>)
// CHECK: %[[ID:.*]] = tile.dot %[[I]], %[[I]], %[[IC]]
// CHECK-NOT: arith.addi
// CHECK: %[[JD:.*]] = tile.dot %[[I]], %[[I]], %[[IC]]
// CHECK-NEXT: arith.addi %[[IC]], %[[JD]]
func.func @int8(%i: tensor<32x32xi8>, %ic: tensor<32x32xi32>) {
  %izero = arith.constant dense<0> : tensor<32x32xi32>
  %id = tile.dot %i, %i, %izero : tensor<32x32xi8>, tensor<32x32xi8> -> tensor<32x32xi32>
  %is = arith.addi %ic, %id : tensor<32x32xi32>
  %jd = tile.dot %i, %i, %ic : tensor<32x32xi8>, tensor<32x32xi8> -> tensor<32x32xi32>
  %js = arith.addi %ic, %jd : tensor<32x32xi32>
  tile.print "i" %is : tensor<32x32xi32>
  tile.print "j" %js : tensor<32x32xi32>
  return
}
