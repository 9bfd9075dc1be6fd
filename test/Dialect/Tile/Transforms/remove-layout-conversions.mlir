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

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#rs = #tile.slice<dim = 1, parent = #r>

// vLLM's fused MoE: the A pointers (from gathered token ids, in the output
// tile's layout) are converted for their load every iteration, with the
// mask built from the token mask. The pointers are carried in the load's
// layout instead (converted once before the loop, advanced by a recomputed
// constant), the mask's conversion sinks to the 1-D token mask and leaves
// the loop: no conversion runs in it.
// CHECK-DAG: #[[C:.*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4]
// CHECK-DAG: #[[CS:.*]] = #tile.slice<dim = 1, parent = #[[C]]>
// CHECK-LABEL: func.func @carried_pointers
// CHECK-DAG: %[[INIT:.*]] = tile.convert_layout %{{.*}} : tensor<64x32x!tile.ptr<bf16>, #{{.*}}> -> tensor<64x32x!tile.ptr<bf16>, #[[C]]>
// CHECK-DAG: %[[TM:.*]] = tile.convert_layout %{{.*}} : tensor<64xi1, #{{.*}}> -> tensor<64xi1, #[[CS]]>
// CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %[[INIT]], {{.*}}) -> (tensor<64x32x!tile.ptr<bf16>, #[[C]]>, tensor<64x32xf32, #[[C]]>)
// CHECK-NOT: tile.convert_layout
// CHECK: tile.expand_dims %[[TM]], 1 : tensor<64xi1, #[[CS]]> -> tensor<64x1xi1, #[[C]]>
// CHECK: %[[V:.*]] = tile.load %[[P]], mask %{{.*}} : tensor<64x32x!tile.ptr<bf16>, #[[C]]>
// CHECK: %[[NEXT:.*]] = tile.addptr %[[P]], %{{.*}} : tensor<64x32x!tile.ptr<bf16>, #[[C]]>, tensor<64x32xi32, #[[C]]>
// CHECK: scf.yield %[[NEXT]],
// CHECK: }
// CHECK-NOT: tile.convert_layout
func.func @carried_pointers(%a: tensor<64x32x!tile.ptr<bf16>, #r>, %tokmask: tensor<64xi1, #rs>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<32> : tensor<64x32xi32, #r>
  %acc0 = arith.constant dense<0.0> : tensor<64x32xf32, #c>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%p = %a, %acc = %acc0) -> (tensor<64x32x!tile.ptr<bf16>, #r>, tensor<64x32xf32, #c>) : i32 {
    %e = tile.expand_dims %tokmask, 1 : tensor<64xi1, #rs> -> tensor<64x1xi1, #r>
    %m = tile.broadcast %e : tensor<64x1xi1, #r> -> tensor<64x32xi1, #r>
    %pc = tile.convert_layout %p : tensor<64x32x!tile.ptr<bf16>, #r> -> tensor<64x32x!tile.ptr<bf16>, #c>
    %mc = tile.convert_layout %m : tensor<64x32xi1, #r> -> tensor<64x32xi1, #c>
    %v = tile.load %pc, mask %mc : tensor<64x32x!tile.ptr<bf16>, #c>
    %f = arith.extf %v : tensor<64x32xbf16, #c> to tensor<64x32xf32, #c>
    %s = arith.addf %acc, %f : tensor<64x32xf32, #c>
    %next = tile.addptr %p, %step : tensor<64x32x!tile.ptr<bf16>, #r>, tensor<64x32xi32, #r>
    scf.yield %next, %s : tensor<64x32x!tile.ptr<bf16>, #r>, tensor<64x32xf32, #c>
  }
  tile.print "acc" %r#1 : tensor<64x32xf32, #c>
  return
}

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

// A pointer tile read for something else as well keeps its layout, and a
// conversion of loaded data in the loop stays in it.
// CHECK-LABEL: func.func @carried_pointers_other_use
// CHECK: scf.for {{.*}} -> (tensor<64x32x!tile.ptr<bf16>, #blocked>)
// CHECK: tile.convert_layout %{{.*}} : tensor<64x32x!tile.ptr<bf16>, #blocked> -> tensor<64x32x!tile.ptr<bf16>, #blocked1>
func.func @carried_pointers_other_use(%a: tensor<64x32x!tile.ptr<bf16>, #r>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<32> : tensor<64x32xi32, #r>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%p = %a) -> (tensor<64x32x!tile.ptr<bf16>, #r>) : i32 {
    %pc = tile.convert_layout %p : tensor<64x32x!tile.ptr<bf16>, #r> -> tensor<64x32x!tile.ptr<bf16>, #c>
    %v = tile.load %pc : tensor<64x32x!tile.ptr<bf16>, #c>
    tile.print "v" %v : tensor<64x32xbf16, #c>
    tile.print "p" %p : tensor<64x32x!tile.ptr<bf16>, #r>
    %next = tile.addptr %p, %step : tensor<64x32x!tile.ptr<bf16>, #r>, tensor<64x32xi32, #r>
    scf.yield %next : tensor<64x32x!tile.ptr<bf16>, #r>
  }
  return
}

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#rs = #tile.slice<dim = 1, parent = #r>
#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>

// A row of scales broadcast over a product's tile (fp8 block-scaled
// MoE): the 64 scales are converted to the accumulator's rows, not the
// 64 x 64 tile.
// CHECK-DAG: #[[MMA:.*]] = #tile.mma
// CHECK-DAG: #[[MS:.*]] = #tile.slice<dim = 1, parent = #[[MMA]]>
// CHECK-LABEL: func.func @broadcast_scales
// CHECK: %[[S:.*]] = tile.convert_layout %{{.*}} : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #[[MS]]>
// CHECK: %[[E:.*]] = tile.expand_dims %[[S]], 1 : tensor<64xf32, #[[MS]]> -> tensor<64x1xf32, #[[MMA]]>
// CHECK: tile.broadcast %[[E]] : tensor<64x1xf32, #[[MMA]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tile.convert_layout
func.func @broadcast_scales(%p: tensor<64x!tile.ptr<f32>, #rs>, %acc: tensor<64x64xf32, #mma>) {
  %s = tile.load %p : tensor<64x!tile.ptr<f32>, #rs>
  %e = tile.expand_dims %s, 1 : tensor<64xf32, #rs> -> tensor<64x1xf32, #r>
  %b = tile.broadcast %e : tensor<64x1xf32, #r> -> tensor<64x64xf32, #r>
  %c = tile.convert_layout %b : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %m = arith.mulf %acc, %c : tensor<64x64xf32, #mma>
  tile.print "m" %m : tensor<64x64xf32, #mma>
  return
}

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>

// An epilogue's elementwise work on two loaded bf16 tiles whose results
// reach the accumulator's layout through three fp32 conversions (one value
// also feeds the others): the two loaded tiles are converted instead and
// the work runs in #mma (Liger's dGU).
// CHECK-DAG: #[[MMA:.*]] = #tile.mma
// CHECK-LABEL: func.func @sources_converted
// CHECK: %[[G:.*]] = tile.load %arg0
// CHECK: %[[U:.*]] = tile.load %arg1
// CHECK: %[[GM:.*]] = tile.convert_layout %[[G]] : tensor<64x64xbf16, #{{.*}}> -> tensor<64x64xbf16, #[[MMA]]>
// CHECK: %[[GF:.*]] = arith.extf %[[GM]] : tensor<64x64xbf16, #[[MMA]]> to tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[UM:.*]] = tile.convert_layout %[[U]] : tensor<64x64xbf16, #{{.*}}> -> tensor<64x64xbf16, #[[MMA]]>
// CHECK: arith.extf %[[UM]] : tensor<64x64xbf16, #[[MMA]]> to tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tile.convert_layout
// CHECK: math.exp {{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.print "du"
func.func @sources_converted(%pg: tensor<64x64x!tile.ptr<bf16>, #r>, %pu: tensor<64x64x!tile.ptr<bf16>, #r>,
                             %acc: tensor<64x64xf32, #mma>) {
  %one = arith.constant dense<1.0> : tensor<64x64xf32, #r>
  %g = tile.load %pg : tensor<64x64x!tile.ptr<bf16>, #r>
  %u = tile.load %pu : tensor<64x64x!tile.ptr<bf16>, #r>
  %gf = arith.extf %g : tensor<64x64xbf16, #r> to tensor<64x64xf32, #r>
  %uf = arith.extf %u : tensor<64x64xbf16, #r> to tensor<64x64xf32, #r>
  %ng = arith.negf %gf : tensor<64x64xf32, #r>
  %e = math.exp %ng : tensor<64x64xf32, #r>
  %d = arith.addf %e, %one : tensor<64x64xf32, #r>
  %sig = arith.divf %one, %d : tensor<64x64xf32, #r>
  %silu = arith.mulf %gf, %sig : tensor<64x64xf32, #r>
  %a = arith.addf %sig, %silu : tensor<64x64xf32, #r>
  %c1 = tile.convert_layout %silu : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %c2 = tile.convert_layout %uf : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %c3 = tile.convert_layout %a : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %du = arith.mulf %acc, %c1 : tensor<64x64xf32, #mma>
  %t = arith.mulf %acc, %c2 : tensor<64x64xf32, #mma>
  %dg = arith.mulf %t, %c3 : tensor<64x64xf32, #mma>
  tile.print "du" %du : tensor<64x64xf32, #mma>
  tile.print "dg" %dg : tensor<64x64xf32, #mma>
  return
}

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>

// A value of the work is also read in the loaded tiles' layout (printed
// there): the work stays where it is, with its conversions.
// CHECK-LABEL: func.func @sources_kept_other_user
// CHECK: arith.mulf %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK: tile.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
// CHECK: tile.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
func.func @sources_kept_other_user(%pg: tensor<64x64x!tile.ptr<bf16>, #r>, %acc: tensor<64x64xf32, #mma>) {
  %g = tile.load %pg : tensor<64x64x!tile.ptr<bf16>, #r>
  %gf = arith.extf %g : tensor<64x64xbf16, #r> to tensor<64x64xf32, #r>
  %sq = arith.mulf %gf, %gf : tensor<64x64xf32, #r>
  %c1 = tile.convert_layout %sq : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %c2 = tile.convert_layout %gf : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  tile.print "sq" %sq : tensor<64x64xf32, #r>
  %x = arith.mulf %acc, %c1 : tensor<64x64xf32, #mma>
  %y = arith.addf %x, %c2 : tensor<64x64xf32, #mma>
  tile.print "y" %y : tensor<64x64xf32, #mma>
  return
}

// -----

#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>

// Three fp32 tiles loaded, combined into two values converted: converting
// the sources would move more bytes, so the conversions stay.
// CHECK-LABEL: func.func @sources_larger
// CHECK: arith.addf %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK: arith.mulf %{{.*}} : tensor<64x64xf32, #blocked>
// CHECK-COUNT-2: tile.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
func.func @sources_larger(%pa: tensor<64x64x!tile.ptr<f32>, #r>, %pb: tensor<64x64x!tile.ptr<f32>, #r>,
                          %pc: tensor<64x64x!tile.ptr<f32>, #r>, %acc: tensor<64x64xf32, #mma>) {
  %a = tile.load %pa : tensor<64x64x!tile.ptr<f32>, #r>
  %b = tile.load %pb : tensor<64x64x!tile.ptr<f32>, #r>
  %c = tile.load %pc : tensor<64x64x!tile.ptr<f32>, #r>
  %s = arith.addf %a, %b : tensor<64x64xf32, #r>
  %p = arith.mulf %s, %c : tensor<64x64xf32, #r>
  %c1 = tile.convert_layout %s : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %c2 = tile.convert_layout %p : tensor<64x64xf32, #r> -> tensor<64x64xf32, #mma>
  %x = arith.mulf %acc, %c1 : tensor<64x64xf32, #mma>
  %y = arith.addf %x, %c2 : tensor<64x64xf32, #mma>
  tile.print "y" %y : tensor<64x64xf32, #mma>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// A value narrowed after its conversion is narrowed first: the bf16 tile
// goes through the scratch, not the fp32 one.
// CHECK-LABEL: func.func @narrow_first
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<128xf32, #blocked> to tensor<128xbf16, #blocked>
// CHECK-NEXT: tile.convert_layout %[[T]] : tensor<128xbf16, #blocked> -> tensor<128xbf16, #blocked1>
func.func @narrow_first(%p: tensor<128x!tile.ptr<f32>, #a>) {
  %l = tile.load %p : tensor<128x!tile.ptr<f32>, #a>
  %c = tile.convert_layout %l : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %t = arith.truncf %c : tensor<128xf32, #b> to tensor<128xbf16, #b>
  tile.print "t" %t : tensor<128xbf16, #b>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// Not where the wide value is cheap to convert (from outside the loop, or
// a conversion itself): the conversion before the narrowing goes away
// there, and narrowing first would undo that forever (the pass hung on
// these before).
// CHECK-LABEL: func.func @narrow_invariant
// CHECK: tile.load
// CHECK-NEXT: tile.convert_layout %{{.*}} : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.truncf %{{.*}} : tensor<128xf32, #blocked1> to tensor<128xf16, #blocked1>
// CHECK-NOT: tile.convert_layout
// CHECK-LABEL: func.func @narrow_converted
// CHECK-NOT: tile.convert_layout
// CHECK: arith.truncf %{{.*}} : tensor<128xf32, #blocked1> to tensor<128xf16, #blocked1>
// CHECK-NOT: tile.convert_layout
func.func @narrow_invariant(%p: tensor<128x!tile.ptr<f32>, #a>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %l = tile.load %p : tensor<128x!tile.ptr<f32>, #a>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %t = arith.truncf %l : tensor<128xf32, #a> to tensor<128xf16, #a>
    %x = tile.convert_layout %t : tensor<128xf16, #a> -> tensor<128xf16, #b>
    tile.print "x" %x : tensor<128xf16, #b>
  }
  return
}
func.func @narrow_converted(%p: tensor<128x!tile.ptr<f32>, #b>) {
  %l = tile.load %p : tensor<128x!tile.ptr<f32>, #b>
  %a = tile.convert_layout %l : tensor<128xf32, #b> -> tensor<128xf32, #a>
  %t = arith.truncf %a : tensor<128xf32, #a> to tensor<128xf16, #a>
  %x = tile.convert_layout %t : tensor<128xf16, #a> -> tensor<128xf16, #b>
  tile.print "x" %x : tensor<128xf16, #b>
  return
}
