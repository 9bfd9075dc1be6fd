# vLLM's fused MoE (test/gpu/dot_kernels.py's dot_gathered_rows): A's pointer
# tile, built from gathered token ids, shares the output tile's layout, and
# the loads want their own. --tile-remove-layout-conversions carries the
# pointers in the load's layout (converted once, before the loop), sinks the
# mask's and the row scales' conversions to their 1-D sources and hoists
# them: the pipelined loop converts nothing.
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_gathered_rows \
# RUN:   --signature '*bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,i32,i32:16,i32:16,i32,i32:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 -D TOP_K=2 -D SCALED=True --emit=tile-layout | FileCheck %s
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_gathered_rows \
# RUN:   --signature '*bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,i32,i32:16,i32:16,i32,i32:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 -D TOP_K=2 -D SCALED=True | FileCheck %s --check-prefix=PTX

# CHECK-LABEL: func.func @dot_gathered_rows
# CHECK: scf.for
# CHECK-NOT: tile.convert_layout
# CHECK: tile.local_load %{{[0-9]+}}[%{{.*}}] : <3x1x64xf32> -> tensor<64xf32, #[[ROWS:slice[0-9]*]]>
# CHECK-NOT: tile.convert_layout
# CHECK: tile.dot
# CHECK-NOT: tile.convert_layout
# CHECK: tile.async_copy
# CHECK-NOT: tile.convert_layout
# CHECK: scf.yield

# The loop's shared-memory traffic is the copies and the products' reads.
# PTX: wgmma.mma_async
# PTX-NOT: st.shared
# PTX: bra.uni
