// RUN: kiln-opt %s --split-input-file --tile-remove-layout-conversions | FileCheck %s

#p = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#s0 = #tile.slice<dim = 0, parent = #p>
#s1 = #tile.slice<dim = 1, parent = #p>
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// A splat is recomputed in the layout the conversion asks for.
// CHECK: #[[S1:.*]] = #tile.slice<dim = 1
// CHECK-LABEL: func.func @splat
// CHECK-NOT: tile.convert_layout
// CHECK: %[[S:.*]] = tile.splat %{{.*}} : f32 -> tensor<16xf32, #[[S1]]>
// CHECK: tile.print "y" %[[S]]
func.func @splat(%t: f32) {
  %x = tile.splat %t : f32 -> tensor<16xf32, #s0>
  %c = tile.convert_layout %x : tensor<16xf32, #s0> -> tensor<16xf32, #s1>
  tile.print "y" %c : tensor<16xf32, #s1>
  return
}

// -----

#s0 = #tile.slice<dim = 0, parent = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// Elementwise chains of cheap values (arange + splat) are recomputed too.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: tile.convert_layout
// CHECK-DAG: tile.arange 0 to 16 : tensor<16xi32, #blocked>
// CHECK-DAG: tile.splat %{{.*}} : i32 -> tensor<16xi32, #blocked>
// CHECK: arith.addi {{.*}} : tensor<16xi32, #blocked>
func.func @chain(%off: i32) {
  %a = tile.arange 0 to 16 : tensor<16xi32, #s0>
  %o = tile.splat %off : i32 -> tensor<16xi32, #s0>
  %c = arith.addi %o, %a : tensor<16xi32, #s0>
  %x = tile.convert_layout %c : tensor<16xi32, #s0> -> tensor<16xi32, #b>
  tile.print "x" %x : tensor<16xi32, #b>
  return
}

// -----

#s0 = #tile.slice<dim = 0, parent = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>
#s1 = #tile.slice<dim = 1, parent = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>>
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// Loaded data must move: the conversion stays, and a chain of two
// conversions becomes one.
// CHECK-DAG: #[[B:.*]] = #tile.blocked<sizePerThread = [2]
// CHECK-DAG: #[[S0:.*]] = #tile.slice<dim = 0
// CHECK-LABEL: func.func @loaded
// CHECK: %[[L:.*]] = tile.load
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[L]] : tensor<16xf32, #[[S0]]> -> tensor<16xf32, #[[B]]>
// CHECK-NEXT: tile.print "x" %[[C]]
func.func @loaded(%p: tensor<16x!tile.ptr<f32>, #s0>) {
  %l = tile.load %p : tensor<16x!tile.ptr<f32>, #s0>
  %a = tile.convert_layout %l : tensor<16xf32, #s0> -> tensor<16xf32, #s1>
  %b = tile.convert_layout %a : tensor<16xf32, #s1> -> tensor<16xf32, #b>
  tile.print "x" %b : tensor<16xf32, #b>
  return
}
