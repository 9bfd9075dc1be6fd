// RUN: kiln-opt %s --split-input-file --tile-to-llvm --verify-diagnostics

func.func @no_layout(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result 'tensor<128xf32>' has no #tile.blocked / #tile.slice layout (run --tile-assign-layouts first)}}
  %t = tile.splat %x : f32 -> tensor<128xf32>
  tile.print "t" %t : tensor<128xf32>
  return
}

// -----

#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @warp_mismatch(%x: f32) {
    // expected-error @+1 {{'tile.splat' op layout of 'tensor<64xf32, #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>>' spreads over 2 warps but the module has tile.num_warps = 4}}
    %t = tile.splat %x : f32 -> tensor<64xf32, #b>
    tile.print "t" %t : tensor<64xf32, #b>
    return
  }
}

// -----

// expected-error @+1 {{unsupported GPU architecture 'sm_75' (expected sm_80, sm_86, sm_89 or sm_90)}}
module attributes {tile.arch = "sm_75"} {
  func.func @old_gpu() {
    return
  }
}

// -----

#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @exp_f64(%x: f64, %p: !tile.ptr<f64>) {
    // expected-error @+1 {{'math.exp' op on fp64 calls libdevice's `__nv_exp`, but libdevice.10.bc was not found}}
    %e = math.exp %x : f64
    tile.store %p, %e : !tile.ptr<f64>
    return
  }
}
