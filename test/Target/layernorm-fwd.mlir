// The forward LayerNorm kernel from hand-written tile IR to PTX.
// RUN: kiln-opt %S/Inputs/layernorm_fwd.mlir --tile-assign-layouts --tile-remove-layout-conversions --tile-to-llvm --tile-emit-ptx -o /dev/null | FileCheck %s
// RUN: %if ptxas %{ kiln-opt %S/Inputs/layernorm_fwd.mlir --tile-assign-layouts --tile-to-llvm --tile-emit-ptx=output=%t.ptx -o /dev/null && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .version 8.1
// CHECK: .target sm_90
// CHECK: .extern .shared .align 16 .b8 kiln_smem[];
// CHECK: .visible .entry _layer_norm_fwd_fused(
// CHECK: .maxntid 128, 1, 1

// Mean: 8 fp16 per thread in one predicated 128-bit load.
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// Lane bits from the highest down, as Triton (same rounding).
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: bar.sync 0;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared
// CHECK: div.full.f32

// Variance.
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: bar.sync 0;
// CHECK: div.full.f32
// CHECK: sqrt.approx.ftz.f32
// CHECK: div.full.f32

// Mean and rstd: one scalar store each, by thread 0.
// CHECK: @%p[[T0:[0-9]+]] st.global.b32
// CHECK: @%p[[T0]] st.global.b32

// Output: w, b, x in 128-bit loads, y in one 128-bit store.
// CHECK-COUNT-3: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// CHECK-NOT: ld.global
// CHECK-NOT: st.global
