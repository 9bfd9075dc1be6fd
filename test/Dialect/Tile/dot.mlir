// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// tile.dot and its layouts round-trip; layouts print through aliases.
// CHECK-DAG: #[[MMA:.*]] = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
// CHECK-DAG: #{{.*}} = #tile.dot_op<opIdx = 0, parent = #[[MMA]], kWidth = 2>
// CHECK-LABEL: func.func @plain
// CHECK: tile.dot %arg0, %arg1, %arg2 : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x16xf32>
// CHECK: tile.dot %arg3, %arg3, %arg4 {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK: tile.dot %arg5, %arg6, %arg7 : tensor<32x64xf16, #{{.*}}>, tensor<64x32xf16, #{{.*}}> -> tensor<32x32xf32, #[[MMA]]>
// f16 operands in blocked layouts: the dot stages them itself.
// CHECK: tile.dot %arg8, %arg9, %arg7 : tensor<32x64xf16, #blocked>, tensor<64x32xf16, #blocked> -> tensor<32x32xf32, #[[MMA]]>
#mma = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
#opA = #tile.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#opB = #tile.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
#bl = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @plain(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %c: tensor<64x16xf32>,
                 %f: tensor<16x16xf32>, %g: tensor<16x16xf32>,
                 %la: tensor<32x64xf16, #opA>, %lb: tensor<64x32xf16, #opB>,
                 %lc: tensor<32x32xf32, #mma>,
                 %ba: tensor<32x64xf16, #bl>, %bb: tensor<64x32xf16, #bl>) {
  %0 = tile.dot %a, %b, %c : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x16xf32>
  %1 = tile.dot %f, %f, %g {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %2 = tile.dot %la, %lb, %lc : tensor<32x64xf16, #opA>, tensor<64x32xf16, #opB> -> tensor<32x32xf32, #mma>
  %3 = tile.dot %ba, %bb, %lc : tensor<32x64xf16, #bl>, tensor<64x32xf16, #bl> -> tensor<32x32xf32, #mma>
  return
}
