# Layouts of tl.dot (ln-compile --emit=tile-layout runs the frontend and the
# layout assignment).
# RUN: ln-compile %s --kernel kloop --signature '*fp16,*fp16,*fp16,i32' --num-stages 1 --arch sm_80 --emit=tile-layout \
# RUN:   | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel kloop --signature '*fp32,*fp32,*fp16,i32' --emit=tile-layout \
# RUN:   | FileCheck %s --check-prefix=TF32
# RUN: ln-compile %s --kernel rowmax --signature '*fp32,*fp32' --num-warps 8 --emit=tile-layout \
# RUN:   | FileCheck %s --check-prefix=ROWMAX
# RUN: ln-compile %s --kernel kloop --signature '*fp16:16,*fp16:16,*fp16:16,i32' --num-warps 8 \
# RUN:   --num-stages 1 --emit=tile-layout | FileCheck %s --check-prefix=OWN
# RUN: ln-compile %s --kernel kcast --signature '*fp32:16,*fp16:16,*fp16:16' --num-warps 8 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=CAST
# RUN: ln-compile %s --kernel kgather --signature '*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32' --num-stages 1 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=GATHER
import triton
import triton.language as tl

# The dot result and its accumulator get the mma layout (4 warps on a
# 128x128 result: 2 x 2); the zero accumulator carried by the K loop joins
# it, so no iteration converts it. f16 operands keep the coalesced blocked
# layouts of their loads: tile.dot stages them through shared memory itself.
# The epilogue converts the result once, for the store.
# LOOP-DAG: #[[MMA:.*]] = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
# LOOP-LABEL: func.func @kloop
# LOOP: %[[ZERO:[a-z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #[[MMA]]>
# LOOP: scf.for {{.*}} iter_args({{.*}}%[[ACC:[a-z0-9_]+]] = %[[ZERO]],{{.*}} -> ({{.*}}tensor<128x128xf32, #[[MMA]]>
# LOOP-NOT: tile.convert_layout
# LOOP:   %[[A:[0-9]+]] = tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>, #blocked{{[0-9]*}}>
# LOOP:   %[[B:[0-9]+]] = tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>, #blocked{{[0-9]*}}>
# LOOP:   %[[D:[0-9]+]] = tile.dot %[[A]], %[[B]], %[[ACC]] : tensor<128x32xf16, #blocked{{[0-9]*}}>, tensor<32x128xf16, #blocked{{[0-9]*}}> -> tensor<128x128xf32, #[[MMA]]>
# LOOP-NOT: tile.convert_layout
# LOOP:   scf.yield {{.*}}%[[D]], {{.*}}tensor<128x128xf32, #[[MMA]]>
# LOOP: arith.truncf {{.*}} : tensor<128x128xf32, #[[MMA]]> to tensor<128x128xf16, #[[MMA]]>
# LOOP: tile.convert_layout {{.*}} : tensor<128x128xf16, #[[MMA]]> -> tensor<128x128xf16, #blocked
# LOOP: tile.store
# Each operand's load gets the coalesced layout of its own shape (A 128x32:
# four lanes of 8 halves span a row; B 32x128: sixteen), not one variable
# shared with the 128x128 result through `rm`, which would be sized for 128
# columns and make half of A's lanes load copies. The 128-column store picks
# its own (B's shape: sixteen lanes of 8 span a row).
# OWN-DAG: #[[LA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
# OWN-DAG: #[[LB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
# OWN: scf.for {{.*}} -> (tensor<128x32x!tile.ptr<f16>, #[[LA]]>, {{.*}}, tensor<32x128x!tile.ptr<f16>, #[[LB]]>)
# OWN-NOT: tile.convert_layout
# OWN: tile.load {{.*}} : tensor<128x32x!tile.ptr<f16>, #[[LA]]>
# OWN-NEXT: tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>, #[[LB]]>
# OWN-NOT: tile.convert_layout
# OWN: scf.yield
# OWN: tile.convert_layout {{.*}} : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #[[LB]]>
# Other operand types convert into #tile.dot_op layouts (bf16 would stage
# like f16; tf32 uses the generic exchange):
# TF32-DAG: #[[MMA:.*]] = #tile.mma<version = 2, warpsPerCTA = [2, 2]>
# TF32-DAG: #[[OPA:.*]] = #tile.dot_op<opIdx = 0, parent = #[[MMA]], kWidth = 1>
# TF32-DAG: #[[OPB:.*]] = #tile.dot_op<opIdx = 1, parent = #[[MMA]], kWidth = 1>
# TF32: %[[CA:[0-9]+]] = tile.convert_layout {{.*}} -> tensor<128x32xf32, #[[OPA]]>
# TF32: %[[CB:[0-9]+]] = tile.convert_layout {{.*}} -> tensor<32x128xf32, #[[OPB]]>
# TF32: tile.dot %[[CA]], %[[CB]], {{.*}} -> tensor<128x128xf32, #[[MMA]]>


@triton.jit
def kloop(A, B, C, K):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a_ptrs = A + rm[:, None] * 32 + rk[None, :]
    b_ptrs = B + rk[:, None] * 128 + rm[None, :]
    acc = tl.zeros((128, 128), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += 32
        b_ptrs += 32 * 128
    tl.store(C + rm[:, None] * 128 + rm[None, :], acc.to(tl.float16))

# A reduction of a dot result (attention's row maximum) reduces the
# accumulator where it is: its result is a slice of the mma layout, and the
# store's pointers (index math, a copy of `r` of their own) are computed in
# that slice too, so nothing converts. fp32 "ieee" operands take
# the FMA operand layouts (kWidth = 0); 8 warps on a 64x64 result split 4 x 2
# (64 rows are too few for 8 warps of 16 whole rows).
# ROWMAX-DAG: #[[MMA8:.*]] = #tile.mma<version = 2, warpsPerCTA = [4, 2]>
# ROWMAX-DAG: #tile.dot_op<opIdx = 0, parent = #[[MMA8]], kWidth = 0>
# ROWMAX-DAG: #[[ROWS:.*]] = #tile.slice<dim = 1, parent = #[[MMA8]]>
# ROWMAX-LABEL: func.func @rowmax
# ROWMAX: %[[D:[0-9]+]] = tile.dot {{.*}} -> tensor<64x64xf32, #[[MMA8]]>
# ROWMAX-NOT: tile.convert_layout %[[D]]
# ROWMAX: %[[M:[0-9]+]] = tile.max %[[D]], 1 : tensor<64x64xf32, #[[MMA8]]> -> tensor<64xf32, #[[ROWS]]>
# ROWMAX-NOT: tile.convert_layout
# ROWMAX: tile.store %{{.*}}, %[[M]] : tensor<64x!tile.ptr<f32>, #[[ROWS]]>


@triton.jit
def rowmax(X, O):
    r = tl.arange(0, 64)
    x = tl.load(X + r[:, None] * 64 + r[None, :])
    d = tl.dot(x, x, input_precision="ieee")
    tl.store(O + r, tl.max(d, axis=1))

# Every operand type gets its own coalesced layout, and an element
# conversion between the load and the dot does not hide the load: here an
# fp32 A (128x32: eight lanes of 4 floats span a row) converted to f16, and
# an f16 B (32x128: sixteen lanes of 8 halves).
# CAST-DAG: #[[CA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
# CAST-DAG: #[[CB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
# CAST: %[[A:[0-9]+]] = tile.load {{.*}} : tensor<128x32x!tile.ptr<f32>, #[[CA]]>
# CAST: %[[H:[0-9]+]] = arith.truncf %[[A]] : tensor<128x32xf32, #[[CA]]> to tensor<128x32xf16, #[[CA]]>
# CAST: tile.load {{.*}} : tensor<32x128x!tile.ptr<f16>, #[[CB]]>
# CAST-NOT: tile.convert_layout
# CAST: tile.dot %[[H]]


@triton.jit
def kcast(A, B, C):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a = tl.load(A + rm[:, None] * 32 + rk[None, :]).to(tl.float16)
    b = tl.load(B + rk[:, None] * 128 + rm[None, :])
    tl.store(C + rm[:, None] * 128 + rm[None, :], tl.dot(a, b).to(tl.float16))


# Gathered operands (im2col: rows from `% W`, columns by a runtime stride;
# nothing proven contiguous) put their lanes along M (A) and N (B), the
# dimensions whose pointer terms a K loop keeps live: each thread then holds
# 2 of A's 256 row pointers and masks, not all of them (lanes along K spilled
# 13 KB on attorch's conv2d), and 1 of B's 32 columns.
# GATHER-DAG: #[[GA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]>
# GATHER-DAG: #[[GB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
# GATHER: tile.load {{.*}} : tensor<256x64x!tile.ptr<f16>, #[[GA]]>
# GATHER: tile.load {{.*}} : tensor<64x32x!tile.ptr<f16>, #[[GB]]>


@triton.jit
def kgather(X, Wt, Y, stride_c, stride_o, W):
    rm = tl.arange(0, 256)
    rk = tl.arange(0, 64)
    rn = tl.arange(0, 32)
    x_rows = X + (rm // W) * (2 * W) + 2 * (rm % W)
    acc = tl.zeros((256, 32), dtype=tl.float32)
    for c in range(0, 4 * 64, 64):
        a = tl.load(x_rows[:, None] + (c + rk)[None, :] * stride_c)
        b = tl.load(Wt + (c + rk)[:, None] * 25 + rn[None, :] * stride_o)
        acc += tl.dot(a, b)
    tl.store(Y + rm[:, None] * 32 + rn[None, :], acc.to(tl.float16))
