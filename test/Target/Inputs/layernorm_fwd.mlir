// The forward LayerNorm kernel (fp16, BLOCK_SIZE = 1024, 4 warps) in the form
// the frontend produces.
module attributes {tile.num_warps = 4 : i32, tile.arch = "sm_90"} {
  func.func @_layer_norm_fwd_fused(
      %X: !tile.ptr<f16> {tile.name = "X", tile.divisibility = 16 : i32},
      %Y: !tile.ptr<f16> {tile.name = "Y", tile.divisibility = 16 : i32},
      %W: !tile.ptr<f16> {tile.name = "W", tile.divisibility = 16 : i32},
      %B: !tile.ptr<f16> {tile.name = "B", tile.divisibility = 16 : i32},
      %Mean: !tile.ptr<f32> {tile.name = "Mean", tile.divisibility = 16 : i32},
      %Rstd: !tile.ptr<f32> {tile.name = "Rstd", tile.divisibility = 16 : i32},
      %stride: i32 {tile.name = "stride", tile.divisibility = 16 : i32},
      %N: i32 {tile.name = "N", tile.divisibility = 16 : i32},
      %eps: f32 {tile.name = "eps"}) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %zero16 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
    %row = tile.program_id 0
    %off_row = arith.muli %row, %stride : i32
    %Xr = tile.addptr %X, %off_row : !tile.ptr<f16>, i32
    %Yr = tile.addptr %Y, %off_row : !tile.ptr<f16>, i32
    %sum = scf.for %off = %c0 to %N step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32>) : i32 {
      %ar = tile.arange 0 to 1024 : tensor<1024xi32>
      %offs = tile.splat %off : i32 -> tensor<1024xi32>
      %cols = arith.addi %offs, %ar : tensor<1024xi32>
      %Ns = tile.splat %N : i32 -> tensor<1024xi32>
      %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
      %p0 = tile.splat %Xr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %p = tile.addptr %p0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %x16 = tile.load %p, mask %m, other %zero16 : tensor<1024x!tile.ptr<f16>>
      %x = arith.extf %x16 : tensor<1024xf16> to tensor<1024xf32>
      %a = arith.addf %acc, %x : tensor<1024xf32>
      scf.yield %a : tensor<1024xf32>
    }
    %s = tile.sum %sum, 0 : tensor<1024xf32> -> f32
    %Nf = arith.sitofp %N : i32 to f32
    %mean = arith.divf %s, %Nf : f32
    %vsum = scf.for %off = %c0 to %N step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32>) : i32 {
      %ar = tile.arange 0 to 1024 : tensor<1024xi32>
      %offs = tile.splat %off : i32 -> tensor<1024xi32>
      %cols = arith.addi %offs, %ar : tensor<1024xi32>
      %Ns = tile.splat %N : i32 -> tensor<1024xi32>
      %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
      %p0 = tile.splat %Xr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %p = tile.addptr %p0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %x16 = tile.load %p, mask %m, other %zero16 : tensor<1024x!tile.ptr<f16>>
      %x = arith.extf %x16 : tensor<1024xf16> to tensor<1024xf32>
      %means = tile.splat %mean : f32 -> tensor<1024xf32>
      %xm = arith.subf %x, %means : tensor<1024xf32>
      %d = tile.where %m, %xm, %zero : tensor<1024xi1>, tensor<1024xf32>
      %dd = arith.mulf %d, %d : tensor<1024xf32>
      %a = arith.addf %acc, %dd : tensor<1024xf32>
      scf.yield %a : tensor<1024xf32>
    }
    %vs = tile.sum %vsum, 0 : tensor<1024xf32> -> f32
    %var = arith.divf %vs, %Nf : f32
    %ve = arith.addf %var, %eps : f32
    %sq = math.sqrt %ve : f32
    %one = arith.constant 1.000000e+00 : f32
    %rstd = arith.divf %one, %sq : f32
    %pm = tile.addptr %Mean, %row : !tile.ptr<f32>, i32
    tile.store %pm, %mean : !tile.ptr<f32>
    %pr = tile.addptr %Rstd, %row : !tile.ptr<f32>, i32
    tile.store %pr, %rstd : !tile.ptr<f32>
    scf.for %off = %c0 to %N step %c1024 : i32 {
      %ar = tile.arange 0 to 1024 : tensor<1024xi32>
      %offs = tile.splat %off : i32 -> tensor<1024xi32>
      %cols = arith.addi %offs, %ar : tensor<1024xi32>
      %Ns = tile.splat %N : i32 -> tensor<1024xi32>
      %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
      %pw0 = tile.splat %W : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %pw = tile.addptr %pw0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %w = tile.load %pw, mask %m : tensor<1024x!tile.ptr<f16>>
      %pb0 = tile.splat %B : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %pb = tile.addptr %pb0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %b = tile.load %pb, mask %m : tensor<1024x!tile.ptr<f16>>
      %px0 = tile.splat %Xr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %px = tile.addptr %px0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      %x16 = tile.load %px, mask %m, other %zero16 : tensor<1024x!tile.ptr<f16>>
      %x = arith.extf %x16 : tensor<1024xf16> to tensor<1024xf32>
      %means = tile.splat %mean : f32 -> tensor<1024xf32>
      %xm = arith.subf %x, %means : tensor<1024xf32>
      %rstds = tile.splat %rstd : f32 -> tensor<1024xf32>
      %xhat = arith.mulf %xm, %rstds : tensor<1024xf32>
      %w32 = arith.extf %w : tensor<1024xf16> to tensor<1024xf32>
      %b32 = arith.extf %b : tensor<1024xf16> to tensor<1024xf32>
      %yw = arith.mulf %xhat, %w32 : tensor<1024xf32>
      %y = arith.addf %yw, %b32 : tensor<1024xf32>
      %y16 = arith.truncf %y : tensor<1024xf32> to tensor<1024xf16>
      %py0 = tile.splat %Yr : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
      %py = tile.addptr %py0, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
      tile.store %py, %y16, mask %m : tensor<1024x!tile.ptr<f16>>
    }
    return
  }
}
