// RUN: kiln-opt %s --split-input-file --tile-decompose-batched-dot | FileCheck %s

// Two batch entries: the batch dimension goes last, one split gives entries
// 0 and 1, one 2-D product each (precision kept), joined and moved back.
// CHECK-LABEL: func.func @two
// CHECK-SAME: (%[[A:.*]]: tensor<2x16x32xf16>, %[[B:.*]]: tensor<2x32x64xf16>, %[[C:.*]]: tensor<2x16x64xf32>)
// CHECK: %[[AT:.*]] = tile.trans %[[A]], [1, 2, 0] : tensor<2x16x32xf16> -> tensor<16x32x2xf16>
// CHECK: %[[AR:.*]] = tile.reshape %[[AT]] : tensor<16x32x2xf16> -> tensor<16x32x1x2xf16>
// CHECK: %[[A0:.*]], %[[A1:.*]] = tile.split %[[AR]] : tensor<16x32x1x2xf16> -> tensor<16x32x1xf16>
// CHECK-DAG: %[[A0E:.*]] = tile.reshape %[[A0]] : tensor<16x32x1xf16> -> tensor<16x32xf16>
// CHECK-DAG: %[[A1E:.*]] = tile.reshape %[[A1]] : tensor<16x32x1xf16> -> tensor<16x32xf16>
// CHECK: tile.trans %[[B]], [1, 2, 0] : tensor<2x32x64xf16> -> tensor<32x64x2xf16>
// CHECK: tile.trans %[[C]], [1, 2, 0] : tensor<2x16x64xf32> -> tensor<16x64x2xf32>
// CHECK: %[[D0:.*]] = tile.dot %[[A0E]], %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision ieee>} : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf32>
// CHECK: %[[D1:.*]] = tile.dot %[[A1E]], %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision ieee>} : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf32>
// CHECK: %[[D0S:.*]] = tile.reshape %[[D0]] : tensor<16x64xf32> -> tensor<16x64x1xf32>
// CHECK: %[[D1S:.*]] = tile.reshape %[[D1]] : tensor<16x64xf32> -> tensor<16x64x1xf32>
// CHECK: %[[J:.*]] = tile.join %[[D0S]], %[[D1S]] : tensor<16x64x1xf32> -> tensor<16x64x1x2xf32>
// CHECK: %[[S:.*]] = tile.reshape %[[J]] : tensor<16x64x1x2xf32> -> tensor<16x64x2xf32>
// CHECK: %[[R:.*]] = tile.trans %[[S]], [2, 0, 1] : tensor<16x64x2xf32> -> tensor<2x16x64xf32>
// CHECK-NOT: tile.dot
// CHECK: tile.print "d" %[[R]]
func.func @two(%a: tensor<2x16x32xf16>, %b: tensor<2x32x64xf16>, %c: tensor<2x16x64xf32>) {
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x32xf16>, tensor<2x32x64xf16> -> tensor<2x16x64xf32>
  tile.print "d" %d : tensor<2x16x64xf32>
  return
}

// -----

// Four entries: halved twice. Entry order: the first split's even half holds
// entries 0 and 2, its odd half 1 and 3; products pair up by entry.
// CHECK-LABEL: func.func @four
// CHECK: tile.trans %{{.*}}, [1, 2, 0] : tensor<4x16x32xi8> -> tensor<16x32x4xi8>
// CHECK: %[[P:.*]] = tile.reshape %{{.*}} : tensor<16x32x4xi8> -> tensor<16x32x2x2xi8>
// CHECK: %[[EVEN:.*]], %[[ODD:.*]] = tile.split %[[P]]
// CHECK: %[[EP:.*]] = tile.reshape %[[EVEN]] : tensor<16x32x2xi8> -> tensor<16x32x1x2xi8>
// CHECK: %[[E0:.*]], %[[E2:.*]] = tile.split %[[EP]]
// CHECK: %[[OP:.*]] = tile.reshape %[[ODD]] : tensor<16x32x2xi8> -> tensor<16x32x1x2xi8>
// CHECK: %[[E1:.*]], %[[E3:.*]] = tile.split %[[OP]]
// CHECK-COUNT-4: tile.dot {{.*}} : tensor<16x32xi8>, tensor<32x32xi8> -> tensor<16x32xi32>
// CHECK-COUNT-2: tile.join
// CHECK: tile.join {{.*}} : tensor<16x32x2xi32> -> tensor<16x32x2x2xi32>
// CHECK: tile.trans %{{.*}}, [2, 0, 1] : tensor<16x32x4xi32> -> tensor<4x16x32xi32>
func.func @four(%a: tensor<4x16x32xi8>, %b: tensor<4x32x32xi8>, %c: tensor<4x16x32xi32>) -> tensor<4x16x32xi32> {
  %d = tile.dot %a, %b, %c : tensor<4x16x32xi8>, tensor<4x32x32xi8> -> tensor<4x16x32xi32>
  return %d : tensor<4x16x32xi32>
}

// -----

// One entry: reshapes only.
// CHECK-LABEL: func.func @one
// CHECK-NOT: tile.trans
// CHECK: tile.reshape %{{.*}} : tensor<1x16x16xf32> -> tensor<16x16xf32>
// CHECK: tile.dot {{.*}} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK: tile.reshape %{{.*}} : tensor<16x16xf32> -> tensor<1x16x16xf32>
func.func @one(%a: tensor<1x16x16xf32>, %b: tensor<1x16x16xf32>, %c: tensor<1x16x16xf32>) -> tensor<1x16x16xf32> {
  %d = tile.dot %a, %b, %c : tensor<1x16x16xf32>, tensor<1x16x16xf32> -> tensor<1x16x16xf32>
  return %d : tensor<1x16x16xf32>
}
