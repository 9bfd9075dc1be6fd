# fp8 dtypes (Triton's float8e4nv = f8E4M3FN, float8e5 = f8E5M2): pointers,
# loads/stores, conversions through fp32 (to fp8) and fp16 (from fp8) as the
# sm_89+ cvt instructions allow, bitcasts, and dtype-call scalars.
# RUN: ln-compile %s --kernel roundtrip --signature '*fp32,*fp8e4nv,*fp8e5,*bf16' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=TILE
# RUN: ln-compile %s --kernel roundtrip --signature '*fp32,*fp8e4nv,*fp8e5,*bf16' -D BLOCK=128 \
# RUN:   --arch sm_90 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: not ln-compile %s --kernel roundtrip --signature '*fp32,*fp8e4nv,*fp8e5,*bf16' -D BLOCK=128 \
# RUN:   --arch sm_80 --emit=ptx 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: ln-compile %s --kernel scalars --signature '*fp32' -D BLOCK=128 --emit=tile \
# RUN:   | FileCheck %s --check-prefix=SCALAR
import triton
import triton.language as tl


@triton.jit
def roundtrip(X, Q4, Q5, B, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Q4 + offs, x.to(tl.float8e4nv))
    tl.store(Q5 + offs, x)  # implicit conversion to the pointee type
    q4 = tl.load(Q4 + offs)
    q5 = tl.load(Q5 + offs)
    tl.store(X + offs, q4.to(tl.float32) + q5.to(tl.float32))
    tl.store(B + offs, q4.to(tl.bfloat16))
    tl.store(Q4 + offs, q5.to(tl.int8, bitcast=True).to(tl.float8e4nv, bitcast=True))

# TILE-LABEL: func.func @roundtrip(
# TILE-SAME: !tile.ptr<f8E4M3FN>
# TILE-SAME: !tile.ptr<f8E5M2>
# TILE: arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf8E4M3FN>
# TILE: arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf8E5M2>
# TILE: %[[Q4:[^ ]+]] = tile.load %{{.*}} : tensor<128x!tile.ptr<f8E4M3FN>>
# TILE: arith.extf %[[Q4]] : tensor<128xf8E4M3FN> to tensor<128xf16>
# TILE: arith.bitcast %{{.*}} : tensor<128xf8E5M2> to tensor<128xi8>
# TILE: arith.bitcast %{{.*}} : tensor<128xi8> to tensor<128xf8E4M3FN>

# PTX-LABEL: .entry roundtrip(
# PTX-DAG: cvt.rn.satfinite.e4m3x2.f32
# PTX-DAG: cvt.rn.satfinite.e5m2x2.f32
# PTX-DAG: cvt.rn.f16x2.e4m3x2
# PTX-DAG: cvt.rn.f16x2.e5m2x2
# SM80: fp8.py:20:{{[0-9]+}}: error: 'arith.truncf' op converting fp32 to fp8e4nv needs sm_89 or newer (cvt.rn.satfinite.e4m3x2.f32); the target is sm_80


@triton.jit
def scalars(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], tl.float32(-float("inf")), tl.float32)
    x = tl.load(X + offs)
    tl.store(X + offs, tl.maximum(m, x) + tl.int8(3) + tl.float16(x))

# SCALAR-LABEL: func.func @scalars(
# SCALAR: arith.constant dense<0xFF800000> : tensor<128xf32>
# SCALAR: arith.constant 3 : i8
# SCALAR: arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf16>


# Tensors convert two registers per cvt (the first operand is the upper byte):
# 8 values per thread here, 4 instructions, none converting one value twice;
# a 32-bit store writes the pairs back to back.
# RUN: ln-compile %s --kernel pairs --signature '*fp32:16,*fp8e4nv:16' -D BLOCK=1024 \
# RUN:   --arch sm_90 --emit=ptx | FileCheck %s --check-prefix=PAIR
@triton.jit
def pairs(X, Q, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Q + offs, tl.load(X + offs).to(tl.float8e4nv))

# PAIR-LABEL: .entry pairs(
# PAIR-COUNT-4: cvt.rn.satfinite.e4m3x2.f32 %rs{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
# PAIR-NOT: cvt.rn.satfinite
# PAIR: st.global.v2.b32


# fp8 beside a wider float tensor computes in the type Triton picks
# (semantic.computation_type_impl): fp16 beside fp16 (fp32 for /), fp32
# beside bf16, fp16 for two different fp8 types (lightllm's
# `(kv_fp8 * scale_bf16).to(...)`); beside a constant it stays an error
# (errors-math.py).
# RUN: ln-compile %s --kernel mixed --signature '*fp8e4nv:16,*fp8e5:16,*fp16:16,*bf16:16,*fp32:16' \
# RUN:   -D BLOCK=128 --emit=tile | FileCheck %s --check-prefix=MIXED
@triton.jit
def mixed(Q, R, H, B, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    q = tl.load(Q + offs)
    r = tl.load(R + offs)
    h = tl.load(H + offs)
    b = tl.load(B + offs)
    tl.store(Out + offs, (q * h) + (q * b) + (q + r) + (q / h))

# MIXED-LABEL: func.func @mixed(
# MIXED: %[[Q16:.*]] = arith.extf %[[Q:.*]] : tensor<128xf8E4M3FN> to tensor<128xf16>
# MIXED: arith.mulf %[[Q16]], %{{.*}} : tensor<128xf16>
# MIXED: arith.extf %[[Q]] : tensor<128xf8E4M3FN> to tensor<128xf16>
# MIXED: arith.mulf %{{.*}}, %{{.*}} : tensor<128xf32>
# MIXED: arith.extf %{{.*}} : tensor<128xf8E5M2> to tensor<128xf16>
# MIXED: arith.addf %{{.*}}, %{{.*}} : tensor<128xf16>
# MIXED: arith.divf %{{.*}}, %{{.*}} : tensor<128xf32>
