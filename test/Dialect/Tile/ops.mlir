// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of every tile op in its custom assembly form.

// Layouts print as aliases.
// CHECK-DAG: #[[B8:.*]] = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[B2:.*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[S:.*]] = #tile.slice<dim = 1, parent = #[[B2]]>

// CHECK-LABEL: func.func @every_op
func.func @every_op(%base: !tile.ptr<f16>, %lock: !tile.ptr<i32>, %n: i32,
                    %acc: !tile.ptr<f32>) {
  // CHECK: tile.program_id 0
  %pid = tile.program_id 0
  // CHECK: tile.num_programs 2
  %np = tile.num_programs 2
  // CHECK: tile.arange 0 to 1024 : tensor<1024xi32>
  %cols = tile.arange 0 to 1024 : tensor<1024xi32>
  // CHECK: tile.splat %{{.*}} : i32 -> tensor<1024xi32>
  %nn = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %nn : tensor<1024xi32>
  // CHECK: tile.splat %{{.*}} : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %bases = tile.splat %base : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %ptrs = tile.addptr %bases, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  // CHECK: tile.ptr_cast %{{.*}} : tensor<1024x!tile.ptr<f16>> -> tensor<1024xi64>
  %addrs = tile.ptr_cast %ptrs : tensor<1024x!tile.ptr<f16>> -> tensor<1024xi64>
  // CHECK: tile.ptr_cast %{{.*}} : tensor<1024xi64> -> tensor<1024x!tile.ptr<i8>>
  %bytes = tile.ptr_cast %addrs : tensor<1024xi64> -> tensor<1024x!tile.ptr<i8>>
  // CHECK: tile.multiple_of %{{.*}}, [16] : tensor<1024xi32>
  %hinted = tile.multiple_of %cols, [16] : tensor<1024xi32>
  // CHECK: tile.max_contiguous %{{.*}}, [1024] : tensor<1024xi32>
  %contig = tile.max_contiguous %hinted, [1024] : tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf16>
  // CHECK: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<1024x!tile.ptr<f16>>
  %x = tile.load %ptrs, mask %mask, other %zero : tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}}, mask %{{.*}} : tensor<1024x!tile.ptr<f16>>
  %x2 = tile.load %ptrs, mask %mask : tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<f16>
  %s = tile.load %base : !tile.ptr<f16>
  // CHECK: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<1024x!tile.ptr<f16>>
  tile.store %ptrs, %x, mask %mask : tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f16>
  tile.store %base, %s : !tile.ptr<f16>
  // Cache hints round-trip; defaults are not printed.
  // CHECK: tile.load %{{.*}} {cache = ".cg", evict = "evict_last"} : tensor<1024x!tile.ptr<f16>>
  %xh = tile.load %ptrs {cache = ".cg", evict = "evict_last"} : tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}} {isVolatile} : !tile.ptr<f16>
  %sv = tile.load %base {isVolatile} : !tile.ptr<f16>
  // CHECK: tile.store %{{.*}}, %{{.*}} {cache = ".cs", evict = "evict_first"} : tensor<1024x!tile.ptr<f16>>
  tile.store %ptrs, %xh {cache = ".cs", evict = "evict_first"} : tensor<1024x!tile.ptr<f16>>
  %xf = arith.extf %x : tensor<1024xf16> to tensor<1024xf32>
  // CHECK: tile.sum %{{.*}}, 0 : tensor<1024xf32> -> f32
  %sum = tile.sum %xf, 0 : tensor<1024xf32> -> f32
  // CHECK: tile.max %{{.*}}, 0 : tensor<1024xf32> -> f32
  %max = tile.max %xf, 0 : tensor<1024xf32> -> f32
  // CHECK: tile.min %{{.*}}, 0 : tensor<1024xf32> -> f32
  %min = tile.min %xf, 0 : tensor<1024xf32> -> f32
  %zf = arith.constant dense<0.0> : tensor<1024xf32>
  // CHECK: tile.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024xi1>, tensor<1024xf32>
  %w = tile.where %mask, %xf, %zf : tensor<1024xi1>, tensor<1024xf32>
  %true = arith.constant true
  // CHECK: tile.where %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  %ws = tile.where %true, %sum, %max : i1, f32
  // CHECK: tile.expand_dims %{{.*}}, 1 : tensor<1024xi32> -> tensor<1024x1xi32>
  %col2 = tile.expand_dims %cols, 1 : tensor<1024xi32> -> tensor<1024x1xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1024x1xi32> -> tensor<1024x4xi32>
  %b = tile.broadcast %col2 : tensor<1024x1xi32> -> tensor<1024x4xi32>
  %bf = arith.sitofp %b : tensor<1024x4xi32> to tensor<1024x4xf32>
  // CHECK: tile.sum %{{.*}}, 1 : tensor<1024x4xf32> -> tensor<1024xf32>
  %rowsum = tile.sum %bf, 1 : tensor<1024x4xf32> -> tensor<1024xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: tile.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %old = tile.atomic_cas %lock, %c0, %c1 : !tile.ptr<i32>
  // CHECK: tile.atomic_rmw xchg %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %prev = tile.atomic_rmw xchg %lock, %c0 : !tile.ptr<i32>
  %accs = tile.splat %acc : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %accp = tile.addptr %accs, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: tile.atomic_rmw add %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<1024x!tile.ptr<f32>>
  %o = tile.atomic_rmw add %accp, %xf, mask %mask : tensor<1024x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw max %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %m = tile.atomic_rmw max %lock, %c1 : !tile.ptr<i32>
  // CHECK: tile.atomic_rmw or %{{.*}}, %{{.*}} : !tile.ptr<i32>
  %or = tile.atomic_rmw or %lock, %c1 : !tile.ptr<i32>
  // CHECK: tile.barrier
  tile.barrier
  // CHECK: tile.print "sum = " %{{.*}} : f32
  tile.print "sum = " %sum : f32
  return
}

#blocked = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#blocked2d = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<1024xf32, #[[B8]]>
// CHECK: tile.convert_layout
// CHECK: tile.sum %{{.*}}, 1 : tensor<32x128xf32, #[[B2]]> -> tensor<32xf32, #[[S]]>
func.func @layouts(%x: tensor<1024xf32, #blocked>, %y: tensor<32x128xf32, #blocked2d>) -> tensor<32xf32, #tile.slice<dim = 1, parent = #blocked2d>> {
  %c = tile.convert_layout %x : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
  %r = tile.sum %y, 1 : tensor<32x128xf32, #blocked2d> -> tensor<32xf32, #tile.slice<dim = 1, parent = #blocked2d>>
  return %r : tensor<32xf32, #tile.slice<dim = 1, parent = #blocked2d>>
}
