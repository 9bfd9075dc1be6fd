// The dW/dB reduction kernel (fp16 partial sums, BLOCK_SIZE_M = 32,
// BLOCK_SIZE_N = 128, 4 warps) in the form the frontend produces.
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_90"} {
  func.func @_layer_norm_bwd_dwdb(
      %DW: !tile.ptr<f16> {tile.name = "DW", tile.divisibility = 16 : i32},
      %DB: !tile.ptr<f16> {tile.name = "DB", tile.divisibility = 16 : i32},
      %FDW: !tile.ptr<f16> {tile.name = "FINAL_DW", tile.divisibility = 16 : i32},
      %FDB: !tile.ptr<f16> {tile.name = "FINAL_DB", tile.divisibility = 16 : i32},
      %M: i32 {tile.name = "M"},
      %N: i32 {tile.name = "N", tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x128xf32>
    %zero16 = arith.constant dense<0.000000e+00> : tensor<32x128xf16>
    %pid = tile.program_id 0
    %base = arith.muli %pid, %c128 : i32
    %bases = tile.splat %base : i32 -> tensor<128xi32>
    %ar = tile.arange 0 to 128 : tensor<128xi32>
    %cols = arith.addi %bases, %ar : tensor<128xi32>
    %r:2 = scf.for %i = %c0 to %M step %c32 iter_args(%dw = %zero, %db = %zero) -> (tensor<32x128xf32>, tensor<32x128xf32>) : i32 {
      %is = tile.splat %i : i32 -> tensor<32xi32>
      %ar32 = tile.arange 0 to 32 : tensor<32xi32>
      %rows = arith.addi %is, %ar32 : tensor<32xi32>
      %rows2 = tile.expand_dims %rows, 1 : tensor<32xi32> -> tensor<32x1xi32>
      %Ms = tile.splat %M : i32 -> tensor<32x1xi32>
      %mr = arith.cmpi slt, %rows2, %Ms : tensor<32x1xi32>
      %cols2 = tile.expand_dims %cols, 0 : tensor<128xi32> -> tensor<1x128xi32>
      %Ns = tile.splat %N : i32 -> tensor<1x128xi32>
      %mc = arith.cmpi slt, %cols2, %Ns : tensor<1x128xi32>
      %mrb = tile.broadcast %mr : tensor<32x1xi1> -> tensor<32x128xi1>
      %mcb = tile.broadcast %mc : tensor<1x128xi1> -> tensor<32x128xi1>
      %mask = arith.andi %mrb, %mcb : tensor<32x128xi1>
      %Ns2 = tile.splat %N : i32 -> tensor<32x1xi32>
      %ro = arith.muli %rows2, %Ns2 : tensor<32x1xi32>
      %rob = tile.broadcast %ro : tensor<32x1xi32> -> tensor<32x128xi32>
      %cob = tile.broadcast %cols2 : tensor<1x128xi32> -> tensor<32x128xi32>
      %offs = arith.addi %rob, %cob : tensor<32x128xi32>
      %dws = tile.splat %DW : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
      %dwp = tile.addptr %dws, %offs : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
      %dw16 = tile.load %dwp, mask %mask, other %zero16 : tensor<32x128x!tile.ptr<f16>>
      %dwf = arith.extf %dw16 : tensor<32x128xf16> to tensor<32x128xf32>
      %ndw = arith.addf %dw, %dwf : tensor<32x128xf32>
      %dbs = tile.splat %DB : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
      %dbp = tile.addptr %dbs, %offs : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
      %db16 = tile.load %dbp, mask %mask, other %zero16 : tensor<32x128x!tile.ptr<f16>>
      %dbf = arith.extf %db16 : tensor<32x128xf16> to tensor<32x128xf32>
      %ndb = arith.addf %db, %dbf : tensor<32x128xf32>
      scf.yield %ndw, %ndb : tensor<32x128xf32>, tensor<32x128xf32>
    }
    %sdw = tile.sum %r#0, 0 : tensor<32x128xf32> -> tensor<128xf32>
    %sdb = tile.sum %r#1, 0 : tensor<32x128xf32> -> tensor<128xf32>
    %Ns1 = tile.splat %N : i32 -> tensor<128xi32>
    %m1 = arith.cmpi slt, %cols, %Ns1 : tensor<128xi32>
    %fdws = tile.splat %FDW : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
    %fdwp = tile.addptr %fdws, %cols : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
    %sdw16 = arith.truncf %sdw : tensor<128xf32> to tensor<128xf16>
    tile.store %fdwp, %sdw16, mask %m1 : tensor<128x!tile.ptr<f16>>
    %fdbs = tile.splat %FDB : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
    %fdbp = tile.addptr %fdbs, %cols : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
    %sdb16 = arith.truncf %sdb : tensor<128xf32> to tensor<128xf16>
    tile.store %fdbp, %sdb16, mask %m1 : tensor<128x!tile.ptr<f16>>
    return
  }
}
