// The backward-dx LayerNorm kernel from hand-written tile IR to PTX.
// RUN: kiln-opt %S/Inputs/layernorm_bwd_dx.mlir --tile-assign-layouts --tile-remove-layout-conversions --tile-to-llvm --tile-emit-ptx -o /dev/null | FileCheck %s
// RUN: %if ptxas %{ kiln-opt %S/Inputs/layernorm_bwd_dx.mlir --tile-assign-layouts --tile-to-llvm --tile-emit-ptx=output=%t.ptx -o /dev/null && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .visible .entry _layer_norm_bwd_dx_fused(
// CHECK: .maxntid 128, 1, 1
// x, dy, w: 128-bit masked loads; mean and rstd: plain scalar loads.
// CHECK-COUNT-3: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: ld.global.b32
// CHECK: ld.global.b32
// Two row sums (c1, c2), each shuffles then crosses warps.
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: bar.sync 0;
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: bar.sync 0;
// dx: one 128-bit store.
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// The spin lock: barrier, CAS on thread 0, broadcast through shared
// memory, barrier, every thread re-tests (LLVM places the test block first).
// CHECK: {{\$L__BB[0-9_]+}}:
// CHECK-NEXT: bar.sync 0;
// CHECK-NEXT: ld.shared.b32 {{.*}}[kiln_smem];
// CHECK: {{\$L__BB[0-9_]+}}:
// CHECK-NEXT: bar.sync 0;
// CHECK: @%p{{[0-9]+}} atom.global.acq_rel.gpu.cas.b32
// CHECK: st.shared.b32 [kiln_smem]
// The counter and the partial sums (128-bit), the first writer's exchange.
// CHECK: ld.global.b32
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: bar.sync 0;
// CHECK: @%p{{[0-9]+}} atom.global.gpu.acq_rel.exch.b32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// debug_barrier, then the release.
// CHECK: bar.sync 0;
// CHECK: @%p{{[0-9]+}} atom.global.gpu.acq_rel.exch.b32
// CHECK: ret;
