# RUN: ln-compile %S/../../../../examples/matmul/matmul.py --kernel matmul_kernel \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1' \
# RUN:   -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=8 \
# RUN:   -D 'ACTIVATION=""' --num-warps 4 --num-stages 4 --emit=tile-layout | FileCheck %s
#
# Tutorial 03's matmul with a runtime stride_bk: `b_ptrs += BLOCK_SIZE_K * stride_bk`
# computes its step in the loop. Both copy pointers are rebased (invariant base plus one
# i64 offset each), so the pipelined loop carries no pointer tensor: carried, B's four
# 64-bit pointers a thread were rotated through a second register every iteration
# (0.93 of Triton's TFLOP/s at this config on the H200; 1.00 rebased, session 52).
# CHECK: %[[STEP:.*]] = arith.muli %arg7, %c32_i32 : i32
# CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #mma>, i32, i32, i64, i64)
# CHECK: scf.yield
