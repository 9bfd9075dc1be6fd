# Calls of @triton.jit helpers are inlined: positional, keyword and default
# arguments, constexpr parameters, tuple returns unpacked by the caller,
# helpers calling helpers. No func.call and no other func.func remain.
# RUN: ln-compile %s --kernel helpers --signature '*fp16,*fp32,i32' -D BLOCK=32 \
# RUN:   --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def scale(x, factor: tl.constexpr = 2):
    return x * factor


@triton.jit
def minmax(x):
    return tl.min(x, axis=0), tl.max(x, axis=0)


@triton.jit
def load_block(ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    return tl.load(ptr + offs, mask=offs < n, other=0.0).to(tl.float32)


@triton.jit
def store_sum(ptr, a, b):
    tl.store(ptr, a + b)


@triton.jit
def helpers(X, Y, n, BLOCK: tl.constexpr):
    x = load_block(X, n, BLOCK=BLOCK)
    lo, hi = minmax(x)
    y = scale(x) + scale(x, factor=3) + scale(factor=4, x=x)
    store_sum(Y, lo, hi)
    tl.store(Y + tl.arange(0, BLOCK), y)

# CHECK-NOT: func.call
# CHECK-LABEL: func.func @helpers(
# CHECK: %[[L:[^ ]+]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<32x!tile.ptr<f16>>
# CHECK: %[[X:[^ ]+]] = arith.extf %[[L]] : tensor<32xf16> to tensor<32xf32>
# CHECK: %[[LO:[^ ]+]] = tile.min %[[X]], 0 : tensor<32xf32> -> f32
# CHECK: %[[HI:[^ ]+]] = tile.max %[[X]], 0 : tensor<32xf32> -> f32
# CHECK: %[[F2:[^ ]+]] = arith.constant dense<2.000000e+00> : tensor<32xf32>
# CHECK: %[[A:[^ ]+]] = arith.mulf %[[X]], %[[F2]] : tensor<32xf32>
# CHECK: %[[F3:[^ ]+]] = arith.constant dense<3.000000e+00> : tensor<32xf32>
# CHECK: %[[B:[^ ]+]] = arith.mulf %[[X]], %[[F3]] : tensor<32xf32>
# CHECK: %[[AB:[^ ]+]] = arith.addf %[[A]], %[[B]] : tensor<32xf32>
# CHECK: %[[F4:[^ ]+]] = arith.constant dense<4.000000e+00> : tensor<32xf32>
# CHECK: %[[C:[^ ]+]] = arith.mulf %[[X]], %[[F4]] : tensor<32xf32>
# CHECK: %[[Y:[^ ]+]] = arith.addf %[[AB]], %[[C]] : tensor<32xf32>
# CHECK: %[[S:[^ ]+]] = arith.addf %[[LO]], %[[HI]] : f32
# CHECK: tile.store %{{.*}}, %[[S]] : !tile.ptr<f32>
# CHECK: tile.store %{{.*}}, %[[Y]] : tensor<32x!tile.ptr<f32>>
# CHECK-NOT: func.func
