# Block pointers: tl.make_block_ptr / tl.advance become scalars (base, i64
# shape and strides, i32 offsets), and each tl.load / tl.store through one
# becomes a pointer tensor base + sum((offset_d + arange) * stride_d) with the
# mask (idx >= 0) & (idx < shape) of its boundary_check dims, as Triton's
# RewriteTensorPointer computes it. Loops and ifs carry the scalars.
# RUN: ln-compile %s --kernel load_nan --signature '*fp16,*fp16,i32,i32,i64' \
# RUN:   -D BM=16 -D BN=32 --emit=tile | FileCheck %s --check-prefix=NAN
# RUN: ln-compile %s --kernel k_loop --signature '*i32,*i32,i32,i32,i32' \
# RUN:   -D BM=16 -D BK=32 --emit=tile | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel k_while --signature '*i32,i32,i32' \
# RUN:   -D BK=32 --emit=tile | FileCheck %s --check-prefix=WHILE
# RUN: ln-compile %s --kernel k_if --signature '*fp32,i32,i32' \
# RUN:   -D B=64 --emit=tile | FileCheck %s --check-prefix=IF
# RUN: ln-compile %s --kernel k_store --signature '*fp32,i32' \
# RUN:   -D B=64 --emit=tile | FileCheck %s --check-prefix=STORE
import triton
import triton.language as tl


@triton.jit
def load_nan(X, Out, M, N, sxm, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(X, (M, N), (sxm, 1), (tl.program_id(0) * BM, 0),
                          (BM, BN), (1, 0))
    x = tl.load(p, boundary_check=(1,), padding_option="nan")
    q = tl.make_block_ptr(Out, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(q, x)

# NAN-LABEL: func.func @load_nan(
# NAN-SAME: %[[X:[^:]+]]: !tile.ptr<f16>
# NAN-SAME: %[[N:arg3]]: i32 {tile.name = "N"}, %[[SXM:arg4]]: i64
# The shape is widened to i64; an i64 stride stays as it is. The tile's
# first element is a scalar: the row offset times the row stride.
# NAN: %[[N64:[^ ]+]] = arith.extsi %[[N]] : i32 to i64
# NAN: %[[O0:[^ ]+]] = arith.extsi %{{.*}} : i32 to i64
# NAN: %[[FIRST0:[^ ]+]] = arith.muli %[[O0]], %[[SXM]] : i64
# In-tile offsets: r * stride per dimension, independent of the offsets.
# NAN: %[[R0:[^ ]+]] = tile.arange 0 to 16 : tensor<16xi32>
# NAN: %[[R064:[^ ]+]] = arith.extsi %[[R0]] : tensor<16xi32> to tensor<16xi64>
# NAN: %[[E0:[^ ]+]] = tile.expand_dims %[[R064]], 1 : tensor<16xi64> -> tensor<16x1xi64>
# NAN: %[[S0:[^ ]+]] = tile.splat %[[SXM]] : i64 -> tensor<16x1xi64>
# NAN: %[[T0:[^ ]+]] = arith.muli %[[E0]], %[[S0]] : tensor<16x1xi64>
# Dimension 0 is not checked: no compare on it.
# NAN-NOT: arith.cmpi
# NAN: %[[FIRST:[^ ]+]] = arith.addi %[[FIRST0]], %{{.*}} : i64
# NAN: %[[R1:[^ ]+]] = tile.arange 0 to 32 : tensor<32xi32>
# NAN: %[[E1:[^ ]+]] = tile.expand_dims %{{.*}}, 0 : tensor<32xi64> -> tensor<1x32xi64>
# A unit stride folds into a constant.
# NAN: %[[T1:[^ ]+]] = arith.muli %[[E1]], %{{.*}} : tensor<1x32xi64>
# NAN: %[[OFF:[^ ]+]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x32xi64>
# Dimension 1 is checked in i32 against clamp(N - offset, 0, 32); its offset
# is the constant 0, so there is no lower test.
# NAN: %[[C1:[^ ]+]] = tile.expand_dims %[[R1]], 0 : tensor<32xi32> -> tensor<1x32xi32>
# NAN: %[[LEFT:[^ ]+]] = arith.subi %[[N64]], %{{.*}} : i64
# NAN: %[[HI:[^ ]+]] = arith.maxsi %[[LEFT]], %{{.*}} : i64
# NAN: arith.minsi %[[HI]], %{{.*}} : i64
# NAN: %[[HI32:[^ ]+]] = arith.trunci %{{.*}} : i64 to i32
# NAN: %[[SN:[^ ]+]] = tile.splat %[[HI32]] : i32 -> tensor<1x32xi32>
# NAN: %[[IN:[^ ]+]] = arith.cmpi slt, %[[C1]], %[[SN]] : tensor<1x32xi32>
# NAN-NOT: arith.cmpi
# NAN: %[[TILE:[^ ]+]] = tile.addptr %[[X]], %[[FIRST]] : !tile.ptr<f16>, i64
# NAN: %[[BASE:[^ ]+]] = tile.splat %[[TILE]] : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
# NAN: %[[P:[^ ]+]] = tile.addptr %[[BASE]], %[[OFF]] : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi64>
# NAN: %[[M:[^ ]+]] = tile.broadcast %[[IN]] : tensor<1x32xi1> -> tensor<16x32xi1>
# NAN: %[[PAD:[^ ]+]] = arith.constant dense<0x7E00> : tensor<16x32xf16>
# NAN: %[[V:[^ ]+]] = tile.load %[[P]], mask %[[M]], other %[[PAD]] : tensor<16x32x!tile.ptr<f16>>
# No boundary_check on the store: no mask.
# NAN: tile.store %{{[^,]+}}, %[[V]] : tensor<16x32x!tile.ptr<f16>>


@triton.jit
def _tile(base, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    return tl.make_block_ptr(base, (M, K), (sxm, 1), (tl.program_id(0) * BM, 0),
                             (BM, BK), (1, 0))


@triton.jit
def _step(p, BK: tl.constexpr):
    return tl.advance(p, (0, BK))


@triton.jit
def k_loop(X, Out, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    p = _tile(X, M, K, sxm, BM, BK)
    acc = tl.zeros((BM, BK), dtype=tl.int32)
    for k in range(0, K, BK):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = _step(p, BK)
    o = tl.make_block_ptr(Out, (M,), (1,), (tl.program_id(0) * BM,), (BM,), (0,))
    tl.store(o, tl.sum(acc, axis=1), boundary_check=(0,))

# The block pointer is carried as its 7 scalars: base, shape x2, strides x2,
# offsets x2; only the advanced offset changes.
# LOOP-LABEL: func.func @k_loop(
# LOOP: scf.for %{{.*}} iter_args(%{{[^ ]+}} = %{{[^,]+}}, %[[B:[^ ]+]] = %arg0, %[[S0:[^ ]+]] = %{{[^,]+}}, %[[S1:[^ ]+]] = %{{[^,]+}}, %[[T0:[^ ]+]] = %{{[^,]+}}, %[[T1:[^ ]+]] = %c1_i64, %[[O0:[^ ]+]] = %{{[^,]+}}, %[[O1:[^ ]+]] = %c0_i32) -> (tensor<16x32xi32>, !tile.ptr<i32>, i64, i64, i64, i64, i32, i32)
# LOOP: %[[ZERO:[^ ]+]] = arith.constant dense<0> : tensor<16x32xi32>
# LOOP: tile.load %{{[^,]+}}, mask %{{[^,]+}}, other %[[ZERO]] : tensor<16x32x!tile.ptr<i32>>
# LOOP: %[[ADV:[^ ]+]] = arith.addi %[[O1]], %c32_i32{{.*}} : i32
# LOOP: scf.yield %{{[^,]+}}, %[[B]], %[[S0]], %[[S1]], %[[T0]], %[[T1]], %[[O0]], %[[ADV]] :
# The rank-1 store: one dimension, checked.
# LOOP: %[[R:[^ ]+]] = tile.arange 0 to 16 : tensor<16xi32>
# LOOP: arith.cmpi slt, %{{.*}} : tensor<16xi32>
# LOOP: tile.store %{{[^,]+}}, %{{[^,]+}}, mask %{{[^ ]+}} : tensor<16x!tile.ptr<i32>>


@triton.jit
def k_while(X, K, sxk, BK: tl.constexpr):
    p = tl.make_block_ptr(X, (K,), (sxk,), (0,), (BK,), (0,))
    k = 0
    while k < K:
        tl.store(p, tl.load(p, boundary_check=(0,)) + 1, boundary_check=(0,))
        p = tl.advance(p, (BK,))
        k += BK

# WHILE-LABEL: func.func @k_while(
# WHILE: scf.while (%{{[^ ]+}} = %{{[^,]+}}, %{{[^ ]+}} = %arg0, %{{[^ ]+}} = %{{[^,]+}}, %{{[^ ]+}} = %{{[^,]+}}, %{{[^ ]+}} = %c0_i32{{[^)]*}}) : (i32, !tile.ptr<i32>, i64, i64, i32) -> (i32, !tile.ptr<i32>, i64, i64, i32)
# WHILE: } do {
# WHILE: ^bb0(%{{[^:]+}}: i32, %{{[^:]+}}: !tile.ptr<i32>, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %[[O:[^:]+]]: i32):
# Without padding_option the masked-off lanes are undefined: no `other`.
# WHILE: tile.load %{{[^,]+}}, mask %{{[^ ]+}} : tensor<32x!tile.ptr<i32>>
# WHILE: arith.addi %[[O]], %c32_i32{{.*}} : i32


@triton.jit
def k_if(X, N, flag, B: tl.constexpr):
    p = tl.make_block_ptr(X, (N,), (1,), (0,), (B,), (0,))
    if flag > 0:
        p = tl.advance(p, (B,))
    # An explicit mask=None / other=None is allowed, as in Triton.
    x = tl.load(p, mask=None, other=None, boundary_check=0,
                padding_option="zero")
    tl.store(p, x * 2, mask=None, boundary_check=(0,))

# Only the offset differs between the branches: one i32 result.
# IF-LABEL: func.func @k_if(
# IF: %[[Z:c0_i32[_0-9]*]] = arith.constant 0 : i32
# IF: %[[R:[^ ]+]] = scf.if %{{[^ ]+}} -> (i32) {
# IF: %[[A:[^ ]+]] = arith.addi %[[Z]], %c64_i32{{.*}} : i32
# IF: scf.yield %[[A]] : i32
# IF: } else {
# IF: scf.yield %[[Z]] : i32
# IF: arith.extsi %[[R]] : i32 to i64


@triton.jit
def k_store(X, N, B: tl.constexpr):
    p = tl.make_block_ptr(X, (N,), (1,), (0,), (B,), (0,))
    tl.store(p, 1.5)

# A scalar value is broadcast to the block; no boundary_check, no mask.
# STORE-LABEL: func.func @k_store(
# STORE: %[[V:[^ ]+]] = arith.constant dense<1.500000e+00> : tensor<64xf32>
# STORE: tile.store %{{[^,]+}}, %[[V]] : tensor<64x!tile.ptr<f32>>
