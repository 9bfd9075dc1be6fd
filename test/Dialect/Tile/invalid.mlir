// RUN: kiln-opt %s --split-input-file --verify-diagnostics

func.func @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op axis must be 0, 1 or 2, got 3}}
  %0 = tile.program_id 3
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{'tile.num_programs' op axis must be 0, 1 or 2, got -1}}
  %0 = tile.num_programs -1
  return
}

// -----

func.func @arange_not_power_of_two() {
  // expected-error @+1 {{'tile.arange' op range length 1000 is not a power of two}}
  %0 = tile.arange 0 to 1000 : tensor<1000xi32>
  return
}

// -----

func.func @arange_empty() {
  // expected-error @+1 {{'tile.arange' op range length must be positive, got start 8 and end 8}}
  %0 = tile.arange 8 to 8 : tensor<1xi32>
  return
}

// -----

func.func @arange_result_length() {
  // expected-error @+1 {{'tile.arange' op result must be a 1-D tensor of 64 elements, got 'tensor<32xi32>'}}
  %0 = tile.arange 0 to 64 : tensor<32xi32>
  return
}

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result element type 'f16' does not match operand type 'f32'}}
  %0 = tile.splat %x : f32 -> tensor<16xf16>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op operand rank 1 does not match result rank 2}}
  %0 = tile.broadcast %x : tensor<16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op dimension 0 of size 2 cannot be broadcast to size 4}}
  %0 = tile.broadcast %x : tensor<2x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<1x16xf32>) {
  // expected-error @+1 {{'tile.broadcast' op element type 'f16' of the result does not match operand element type 'f32'}}
  %0 = tile.broadcast %x : tensor<1x16xf32> -> tensor<4x16xf16>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 2 out of range for inserting into a rank-1 tensor}}
  %0 = tile.expand_dims %x, 2 : tensor<16xi32> -> tensor<16x1xi32>
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected result shape [16, 1], got [1, 16]}}
  %0 = tile.expand_dims %x, 1 : tensor<16xi32> -> tensor<1x16xi32>
  return
}

// -----

func.func @expand_dims_element(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op element type must be preserved, got 'i32' and 'i64'}}
  %0 = tile.expand_dims %x, 0 : tensor<16xi32> -> tensor<1x16xi64>
  return
}

// -----

func.func @convert_layout_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op must preserve shape and element type, got 'tensor<16xf32>' and 'tensor<32xf32>'}}
  %0 = tile.convert_layout %x : tensor<16xf32> -> tensor<32xf32>
  return
}

// -----

func.func @addptr_shapes(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{'tile.addptr' op pointer and offset must both be scalars or tensors of the same shape, got 'tensor<16x!tile.ptr<f32>>' and 'tensor<32xi32>'}}
  %0 = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<32xi32>
  return
}

// -----

func.func @addptr_scalar_tensor(%p: !tile.ptr<f32>, %o: tensor<1xi32>) {
  // expected-error @+1 {{'tile.addptr' op pointer and offset must both be scalars or tensors of the same shape}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, tensor<1xi32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // expected-error @+1 {{'tile.load' op `other` given without `mask`}}
  %0 = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @load_store_cache_modifier(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op unknown cache modifier `.cs` (expected .ca, .cg, .cv)}}
  %0 = tile.load %p {cache = ".cs"} : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @store_cache_modifier(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{'tile.store' op unknown cache modifier `.ca` (expected .wb, .cg, .cs, .wt)}}
  tile.store %p, %v {cache = ".ca"} : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @eviction_policy(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op unknown eviction policy `evict_normal` (expected evict_first or evict_last)}}
  %0 = tile.load %p {evict = "evict_normal"} : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is i1 with the pointer's shape}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result type is the pointee type}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_other_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the result type}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value type is the pointee type}}
  "tile.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf16>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask is i1 with the pointer's shape}}
  "tile.store"(%p, %v, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  return
}

// -----

func.func @cas_width(%p: !tile.ptr<i8>, %a: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op atomic_cas needs a 16-, 32- or 64-bit element type, got 'i8'}}
  %0 = tile.atomic_cas %p, %a, %a : !tile.ptr<i8>
  return
}

// -----

func.func @cas_types(%p: !tile.ptr<i32>, %a: i64) {
  // expected-error @+1 {{'tile.atomic_cas' op failed to verify that cmp has the pointee type}}
  %0 = "tile.atomic_cas"(%p, %a, %a) : (!tile.ptr<i32>, i64, i64) -> i32
  return
}

// -----

func.func @rmw_half_max(%p: !tile.ptr<f16>, %a: f16) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic max needs a 32- or 64-bit integer element type, got 'f16'}}
  %0 = tile.atomic_rmw max %p, %a : !tile.ptr<f16>
  return
}

// -----

func.func @rmw_float_umax(%p: !tile.ptr<f32>, %a: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic umax needs a 32- or 64-bit integer element type, got 'f32'}}
  %0 = tile.atomic_rmw umax %p, %a : !tile.ptr<f32>
  return
}

// -----

func.func @rmw_float_and(%p: !tile.ptr<f32>, %a: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic and needs a 32- or 64-bit integer element type, got 'f32'}}
  %0 = tile.atomic_rmw and %p, %a : !tile.ptr<f32>
  return
}

// -----

func.func @rmw_xchg_width(%p: !tile.ptr<f16>, %a: f16) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic xchg needs a 32- or 64-bit element type, got 'f16'}}
  %0 = tile.atomic_rmw xchg %p, %a : !tile.ptr<f16>
  return
}

// -----

func.func @rmw_add_type(%p: !tile.ptr<i8>, %a: i8) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic add does not support element type 'i8'}}
  %0 = tile.atomic_rmw add %p, %a : !tile.ptr<i8>
  return
}

// -----

func.func @rmw_mask_shape(%p: tensor<16x!tile.ptr<i32>>, %a: tensor<16xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op failed to verify that mask is i1 with the pointer's shape}}
  %0 = "tile.atomic_rmw"(%p, %a, %m) <{kind = #tile<rmw_kind add>}> : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>, tensor<4xi1>) -> tensor<16xi32>
  return
}

// -----

func.func @sum_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.sum' op axis 1 out of range for a rank-1 tensor}}
  %0 = tile.sum %x, 1 : tensor<16xf32> -> f32
  return
}

// -----

func.func @max_scalar_result(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.max' op reducing a 1-D tensor yields a scalar of type 'f32', got 'f16'}}
  %0 = tile.max %x, 0 : tensor<16xf32> -> f16
  return
}

// -----

func.func @min_result_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{'tile.min' op expected a result of shape [16] and element type 'f32', got 'tensor<4xf32>'}}
  %0 = tile.min %x, 0 : tensor<4x16xf32> -> tensor<4xf32>
  return
}

// -----

func.func @where_shape(%c: tensor<8xi1>, %a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.where' op condition shape [8] does not match result shape [16]}}
  %0 = tile.where %c, %a, %a : tensor<8xi1>, tensor<16xf32>
  return
}

// -----

func.func @where_types(%c: i1, %a: f32, %b: f16) {
  // expected-error @+1 {{'tile.where' op failed to verify that all of {trueValue, falseValue, result} have same type}}
  %0 = "tile.where"(%c, %a, %b) : (i1, f32, f16) -> f32
  return
}

// -----

func.func @multiple_of_rank(%x: tensor<4x16xi32>) {
  // expected-error @+1 {{'tile.multiple_of' op expected 2 value(s), one per dimension, got 1}}
  %0 = tile.multiple_of %x, [16] : tensor<4x16xi32>
  return
}

// -----

func.func @max_contiguous_positive(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tile.max_contiguous' op values must be positive, got 0}}
  %0 = tile.max_contiguous %x, [0] : tensor<16xi32>
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
func.func @bad_layout(%x: tensor<16xf32, #tile.blocked<sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
func.func @bad_order(%x: tensor<16x16xf32, #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout fields must all have the same non-zero rank, got sizePerThread 1, threadsPerWarp 2, warpsPerCTA 1, order 1}}
func.func @bad_rank(%x: tensor<16xf32, #tile.blocked<sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

func.func @reduce_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 1 out of range for a rank-1 tensor}}
  %0 = tile.reduce(%x) axis = 1 : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @reduce_shapes(%x: tensor<16xf32>, %i: tensor<32xi32>) {
  // expected-error @+1 {{'tile.reduce' op operand 1 has shape [32] but operand 0 has shape [16]}}
  %0:2 = tile.reduce(%x, %i) axis = 0 : (tensor<16xf32>, tensor<32xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    tile.yield %a, %ai : f32, i32
  }
}

// -----

func.func @reduce_arity(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner must take 2 arguments (two per operand), got 3}}
  %0 = tile.reduce(%x) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32, %c: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @reduce_arg_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner argument 1 must be 'f32', got 'i32'}}
  %0 = tile.reduce(%x) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: i32):
    tile.yield %a : f32
  }
}

// -----

func.func @reduce_yield_count(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner must yield 1 value(s), one per operand, got 2}}
  %0 = tile.reduce(%x) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a, %b : f32, f32
  }
}

// -----

func.func @reduce_yield_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner result 0 must be 'f32', got 'f16'}}
  %0 = tile.reduce(%x) axis = 0 : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %h = arith.truncf %a : f32 to f16
    tile.yield %h : f16
  }
}

// -----

func.func @reduce_result(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op result 0: expected shape [16] and element type 'f32', got 'tensor<8xf32>'}}
  %0 = tile.reduce(%x) axis = 1 : (tensor<16x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @reduce_result_count(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reduce' op expected 1 result(s), one per operand, got 2}}
  %0:2 = tile.reduce(%x) axis = 0 : (tensor<16xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @scan_result(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op result 0 must have the operand's type 'tensor<16xf32>', got 'tensor<16xf16>'}}
  %0 = tile.scan(%x) axis = 0 : (tensor<16xf32>) -> tensor<16xf16> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @scan_axis(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{'tile.scan' op axis -1 out of range for a rank-2 tensor}}
  %0 = tile.scan(%x) axis = -1 : (tensor<16x4xf32>) -> tensor<16x4xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
}

// -----

func.func @yield_outside(%a: f32) {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.reduce, tile.scan, tile.map_elementwise'}}
  tile.yield %a : f32
}

// -----

func.func @atomic_bad_sem(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op sem must be relaxed, acquire, release or acq_rel, got "seq_cst"}}
  %a = tile.atomic_rmw add %p, %v {sem = "seq_cst"} : !tile.ptr<f32>
  return
}

// -----

func.func @atomic_bad_scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tile.atomic_cas' op scope must be cta, gpu or sys, got "cluster"}}
  %a = tile.atomic_cas %p, %v, %v {scope = "cluster"} : !tile.ptr<i32>
  return
}

// -----

func.func @ptr_cast_without_pointer(%a: i64) {
  // expected-error @+1 {{'tile.ptr_cast' op casts to or from a pointer, got 'i64' -> 'i64'}}
  %0 = tile.ptr_cast %a : i64 -> i64
  return
}

// -----

func.func @ptr_cast_narrow_int(%a: i32) {
  // expected-error @+1 {{'tile.ptr_cast' op the integer side must be i64, got 'i32'}}
  %0 = tile.ptr_cast %a : i32 -> !tile.ptr<f16>
  return
}
