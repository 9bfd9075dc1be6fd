// RUN: kiln-opt %s --split-input-file --tile-assign-layouts --verify-diagnostics

func.func @not_power_of_two(%x: f32) {
  // expected-error @+1 {{tensor dimensions must be powers of two, got 'tensor<1000xf32>'}}
  %t = tile.splat %x : f32 -> tensor<1000xf32>
  tile.print "t" %t : tensor<1000xf32>
  return
}

// -----

// expected-error @+1 {{num_warps must be a power of two between 1 and 32, got 3}}
module attributes {tile.num_warps = 3 : i32} {
  func.func @bad_warps() {
    return
  }
}
