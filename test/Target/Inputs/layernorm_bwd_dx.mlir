// The backward-dx LayerNorm kernel (fp16, GROUP_SIZE_M = 64,
// BLOCK_SIZE_N = 1024, 4 warps) in the form the frontend produces.
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_90"} {
  func.func @_layer_norm_bwd_dx_fused(
      %DX: !tile.ptr<f16> {tile.name = "DX", tile.divisibility = 16 : i32},
      %DY: !tile.ptr<f16> {tile.name = "DY", tile.divisibility = 16 : i32},
      %DW: !tile.ptr<f16> {tile.name = "DW", tile.divisibility = 16 : i32},
      %DB: !tile.ptr<f16> {tile.name = "DB", tile.divisibility = 16 : i32},
      %X: !tile.ptr<f16> {tile.name = "X", tile.divisibility = 16 : i32},
      %W: !tile.ptr<f16> {tile.name = "W", tile.divisibility = 16 : i32},
      %Mean: !tile.ptr<f32> {tile.name = "Mean", tile.divisibility = 16 : i32},
      %Rstd: !tile.ptr<f32> {tile.name = "Rstd", tile.divisibility = 16 : i32},
      %Lock: !tile.ptr<i32> {tile.name = "Lock", tile.divisibility = 16 : i32},
      %stride: i32 {tile.name = "stride", tile.divisibility = 16 : i32},
      %N: i32 {tile.name = "N", tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %zero16 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
    %row = tile.program_id 0
    %cols = tile.arange 0 to 1024 : tensor<1024xi32>
    %Ns = tile.splat %N : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    %roff = arith.muli %row, %stride : i32
    %Xr = tile.addptr %X, %roff : !tile.ptr<f16>, i32
    %DYr = tile.addptr %DY, %roff : !tile.ptr<f16>, i32
    %DXr = tile.addptr %DX, %roff : !tile.ptr<f16>, i32
    %lock_id = arith.remsi %row, %c64 : i32
    %L = tile.addptr %Lock, %lock_id : !tile.ptr<i32>, i32
    %Count = tile.addptr %L, %c64 : !tile.ptr<i32>, i32
    %lo = arith.muli %lock_id, %N : i32
    %DWr = tile.addptr %DW, %lo : !tile.ptr<f16>, i32
    %DWs = tile.splat %DWr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %DWp = tile.addptr %DWs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %DBr = tile.addptr %DB, %lo : !tile.ptr<f16>, i32
    %DBs = tile.splat %DBr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %DBp = tile.addptr %DBs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %xs = tile.splat %Xr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %xp = tile.addptr %xs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %x16 = tile.load %xp, mask %mask, other %zero16 : tensor<1024x!tile.ptr<f16>>
    %x = arith.extf %x16 : tensor<1024xf16> to tensor<1024xf32>
    %dys = tile.splat %DYr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %dyp = tile.addptr %dys, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %dy16 = tile.load %dyp, mask %mask, other %zero16 : tensor<1024x!tile.ptr<f16>>
    %dy = arith.extf %dy16 : tensor<1024xf16> to tensor<1024xf32>
    %ws = tile.splat %W : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %wp = tile.addptr %ws, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %w16 = tile.load %wp, mask %mask : tensor<1024x!tile.ptr<f16>>
    %w = arith.extf %w16 : tensor<1024xf16> to tensor<1024xf32>
    %pm = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
    %mean = tile.load %pm : !tile.ptr<f32>
    %pr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
    %rstd = tile.load %pr : !tile.ptr<f32>
    %means = tile.splat %mean : f32 -> tensor<1024xf32>
    %rstds = tile.splat %rstd : f32 -> tensor<1024xf32>
    %xm = arith.subf %x, %means : tensor<1024xf32>
    %xhat0 = arith.mulf %xm, %rstds : tensor<1024xf32>
    %wdy0 = arith.mulf %w, %dy : tensor<1024xf32>
    %xhat = tile.where %mask, %xhat0, %zero : tensor<1024xi1>, tensor<1024xf32>
    %wdy = tile.where %mask, %wdy0, %zero : tensor<1024xi1>, tensor<1024xf32>
    %prod = arith.mulf %xhat, %wdy : tensor<1024xf32>
    %s1 = tile.sum %prod, 0 : tensor<1024xf32> -> f32
    %Nf = arith.sitofp %N : i32 to f32
    %c1v = arith.divf %s1, %Nf : f32
    %s2 = tile.sum %wdy, 0 : tensor<1024xf32> -> f32
    %c2v = arith.divf %s2, %Nf : f32
    %c1s = tile.splat %c1v : f32 -> tensor<1024xf32>
    %c2s = tile.splat %c2v : f32 -> tensor<1024xf32>
    %t1 = arith.mulf %xhat, %c1s : tensor<1024xf32>
    %t2 = arith.addf %t1, %c2s : tensor<1024xf32>
    %t3 = arith.subf %wdy, %t2 : tensor<1024xf32>
    %dx = arith.mulf %t3, %rstds : tensor<1024xf32>
    %dx16 = arith.truncf %dx : tensor<1024xf32> to tensor<1024xf16>
    %dxs = tile.splat %DXr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
    %dxp = tile.addptr %dxs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    tile.store %dxp, %dx16, mask %mask : tensor<1024x!tile.ptr<f16>>
    %pdw = arith.mulf %dy, %xhat : tensor<1024xf32>
    scf.while : () -> () {
      %old = tile.atomic_cas %L, %c0, %c1 : !tile.ptr<i32>
      %busy = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    %count = tile.load %Count : !tile.ptr<i32>
    %first = arith.cmpi eq, %count, %c0 : i32
    %r:2 = scf.if %first -> (tensor<1024xf32>, tensor<1024xf32>) {
      %o = tile.atomic_rmw xchg %Count, %c1 : !tile.ptr<i32>
      scf.yield %pdw, %dy : tensor<1024xf32>, tensor<1024xf32>
    } else {
      %odw16 = tile.load %DWp, mask %mask : tensor<1024x!tile.ptr<f16>>
      %odw = arith.extf %odw16 : tensor<1024xf16> to tensor<1024xf32>
      %ndw = arith.addf %pdw, %odw : tensor<1024xf32>
      %odb16 = tile.load %DBp, mask %mask : tensor<1024x!tile.ptr<f16>>
      %odb = arith.extf %odb16 : tensor<1024xf16> to tensor<1024xf32>
      %ndb = arith.addf %dy, %odb : tensor<1024xf32>
      scf.yield %ndw, %ndb : tensor<1024xf32>, tensor<1024xf32>
    }
    %fdw = arith.truncf %r#0 : tensor<1024xf32> to tensor<1024xf16>
    tile.store %DWp, %fdw, mask %mask : tensor<1024x!tile.ptr<f16>>
    %fdb = arith.truncf %r#1 : tensor<1024xf32> to tensor<1024xf16>
    tile.store %DBp, %fdb, mask %mask : tensor<1024x!tile.ptr<f16>>
    tile.barrier
    %rel = tile.atomic_rmw xchg %L, %c0 : !tile.ptr<i32>
    return
  }
}
