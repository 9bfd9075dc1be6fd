// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Round trip of tile.sort, tile.gather and tile.histogram.

// CHECK-LABEL: func.func @ops
func.func @ops(%x: tensor<4x128xf32>, %u: tensor<256xi32>, %i: tensor<4x32xi64>,
               %m: tensor<256xi1>) {
  // CHECK: tile.sort %{{.*}} : tensor<4x128xf32>
  %0 = tile.sort %x : tensor<4x128xf32>
  // CHECK: tile.sort %{{.*}} descending unsigned : tensor<256xi32>
  %1 = tile.sort %u descending unsigned : tensor<256xi32>
  // CHECK: tile.gather %{{.*}}, %{{.*}}, 1 : tensor<4x128xf32>, tensor<4x32xi64> -> tensor<4x32xf32>
  %2 = tile.gather %x, %i, 1 : tensor<4x128xf32>, tensor<4x32xi64> -> tensor<4x32xf32>
  // CHECK: tile.histogram %{{.*}} : tensor<256xi32> -> tensor<64xi32>
  %3 = tile.histogram %u : tensor<256xi32> -> tensor<64xi32>
  // CHECK: tile.histogram %{{.*}} mask %{{.*}} : tensor<256xi1> : tensor<256xi32> -> tensor<8xi32>
  %4 = tile.histogram %u mask %m : tensor<256xi1> : tensor<256xi32> -> tensor<8xi32>
  return
}
