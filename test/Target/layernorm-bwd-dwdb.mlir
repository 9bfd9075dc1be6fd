// The dW/dB reduction kernel from hand-written tile IR to PTX.
// RUN: kiln-opt %S/Inputs/layernorm_bwd_dwdb.mlir --tile-assign-layouts --tile-remove-layout-conversions --tile-to-llvm --tile-emit-ptx -o /dev/null | FileCheck %s
// RUN: %if ptxas %{ kiln-opt %S/Inputs/layernorm_bwd_dwdb.mlir --tile-assign-layouts --tile-to-llvm --tile-emit-ptx=output=%t.ptx -o /dev/null && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// CHECK: .visible .entry _layer_norm_bwd_dwdb(
// CHECK: .maxntid 128, 1, 1
// [32, 128] fp16 tiles: 4 rows x 8 columns per thread, 128-bit loads under
// the 2-D mask, for DW and DB.
// CHECK-COUNT-8: @%p{{[0-9]+}} ld.global.v4.b32
// Axis-0 sums: one butterfly (lane distance 16) per column, then the four
// warps' rows in shared memory.
// CHECK-COUNT-8: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: bar.sync 0;
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// FINAL_DW and FINAL_DB: 8 fp16 columns per thread in one 128-bit store.
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32
// CHECK-NOT: st.global
