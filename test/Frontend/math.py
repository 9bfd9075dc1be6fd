# Math builtins with Triton 3.6's dtype rules and lowering: erf/sigmoid on
# fp32/fp64, div_rn/sqrt_rn IEEE (tile.precise_*), fdiv as `/`, clamp as
# min(max(x, lo), hi) or Triton's min.xorsign.abs for clamp(x, -c, c) (NaN-propagating with PropagateNan.ALL), and the
# libdevice wrappers under every import spelling real kernels use.
# RUN: ln-compile %s --kernel builtins --signature '*fp32,*fp32,*i32' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=TILE
# RUN: env KILN_LIBDEVICE= ln-compile %s --kernel precise --signature '*fp32,*fp16,*bf16' \
# RUN:   -D BLOCK=128 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel spellings --signature '*fp32,*fp64' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=LIB
# RUN: ln-compile %s --kernel f64math --signature '*fp64' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=F64
# RUN: ln-compile %s --kernel scalars --signature '*fp32' -D BLOCK=128 --emit=tile \
# RUN:   | FileCheck %s --check-prefix=SCALAR
import triton
import triton.language as tl
import triton.language.extra.libdevice as ld2
from triton.language.extra import libdevice
from triton.language.extra.libdevice import rsqrt
from triton.language.extra.cuda.libdevice import pow as ldpow
from triton.language.extra.cuda import libdevice as cuda_ld
from triton.language.math import tanh as math_tanh


@triton.jit
def builtins(X, Y, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    i = tl.load(I + offs)
    r = tl.sigmoid(x) + tl.erf(x) + x.erf() + tl.floor(x) + tl.ceil(x)
    r += tl.log2(x) + tl.sin(x) + tl.cos(x)
    r += tl.div_rn(x, y) + tl.sqrt_rn(x) + x.sqrt_rn() + tl.fdiv(x, y, ieee_rounding=True)
    r += tl.clamp(x, -1.0, 1.0) + tl.clamp(x, y, 2.0, propagate_nan=tl.PropagateNan.ALL)
    r += tl.fma(x, y, r) + tl.abs(x) + tl.math.div_rn(x, 3.0)
    tl.store(Y + offs, r)
    tl.store(I + offs, tl.umulhi(i, 7) + tl.abs(i))

# TILE-LABEL: func.func @builtins(
# sigmoid = 1 / (1 + exp(-x))
# TILE: %[[NEG:[^ ]+]] = arith.negf %[[X:[^ ]+]] : tensor<128xf32>
# TILE: %[[E:[^ ]+]] = math.exp %[[NEG]] : tensor<128xf32>
# TILE: %[[D:[^ ]+]] = arith.addf %{{.*}}, %[[E]] : tensor<128xf32>
# TILE: arith.divf %{{.*}}, %[[D]] : tensor<128xf32>
# TILE: math.erf %[[X]] : tensor<128xf32>
# TILE: math.erf %[[X]] : tensor<128xf32>
# TILE: math.floor %[[X]]
# TILE: math.ceil %[[X]]
# TILE: math.log2 %[[X]]
# TILE: math.sin %[[X]]
# TILE: math.cos %[[X]]
# TILE: tile.precise_divf %[[X]], %[[Y:[^ ]+]] : tensor<128xf32>
# TILE: tile.precise_sqrt %[[X]] : tensor<128xf32>
# TILE: tile.precise_sqrt %[[X]] : tensor<128xf32>
# TILE: arith.divf %[[X]], %[[Y]] : tensor<128xf32>
# clamp(x, -c, c) on sm_90: Triton's clip pattern (triton-parity.test)
# TILE: tile.inline_asm_elementwise "min.xorsign.abs.f32 $0, $1, $2;", "=f,f,f"(%[[X]], %{{.*}})
# TILE: %[[MX2:[^ ]+]] = arith.maximumf %[[X]], %[[Y]] : tensor<128xf32>
# TILE: arith.minimumf %[[MX2]], %{{.*}} : tensor<128xf32>
# TILE: math.fma %[[X]], %[[Y]], %{{.*}} : tensor<128xf32>
# TILE: math.absf %[[X]]
# TILE: tile.precise_divf %[[X]], %{{.*}} : tensor<128xf32>
# TILE: arith.mului_extended
# TILE: math.absi


@triton.jit
def precise(X, H, B, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(X + offs, tl.div_rn(x, x + 1.0) + tl.sqrt_rn(x) + tl.clamp(x, 0.0, 6.0))
    tl.store(H + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(B + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"))
    tl.store(B + offs + BLOCK, x.to(tl.bfloat16, fp_downcast_rounding="rtne"))

# PTX-LABEL: .entry precise(
# PTX-DAG: div.rn.f32
# PTX-DAG: sqrt.rn.f32
# PTX-DAG: max.f32
# PTX-DAG: min.f32
# PTX-DAG: cvt.rz.f16.f32
# PTX-DAG: cvt.rz.bf16.f32
# PTX-DAG: cvt.rn.bf16.f32


@triton.jit
def spellings(X, D, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    d = tl.load(D + offs)
    r = tl.extra.cuda.libdevice.tanh(x) + libdevice.exp10(x) + rsqrt(x)
    r += ldpow(x, 2.0) + ldpow(x, 3) + cuda_ld.erfinv(x) + math_tanh(x)
    r += ld2.fast_expf(x) + tl.math.log1p(x) + libdevice.pow(x.to(tl.float16), 2.0)
    r = tl.where(libdevice.isnan(r) | libdevice.isinf(r), 0.0, r)
    tl.store(X + offs, r + libdevice.signbit(x))
    tl.store(D + offs, libdevice.tanh(d) + libdevice.llrint(d) + libdevice.ldexp(d, 2))

# LIB-LABEL: func.func @spellings(
# LIB: tile.extern_elementwise "__nv_tanhf"(%[[X:[^)]+]]) : (tensor<128xf32>) -> tensor<128xf32>
# LIB: tile.extern_elementwise "__nv_exp10f"(%[[X]]) : (tensor<128xf32>) -> tensor<128xf32>
# LIB: tile.extern_elementwise "__nv_rsqrtf"(%[[X]])
# LIB: tile.extern_elementwise "__nv_powf"(%[[X]], %{{.*}}) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
# LIB: tile.extern_elementwise "__nv_powif"(%[[X]], %{{.*}}) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
# LIB: tile.extern_elementwise "__nv_erfinvf"(%[[X]])
# LIB: tile.extern_elementwise "__nv_tanhf"(%[[X]])
# LIB: tile.extern_elementwise "__nv_fast_expf"(%[[X]])
# LIB: tile.extern_elementwise "__nv_log1pf"(%[[X]])
# fp16 matches no overload: promoted with the fp32 constant to fp32.
# LIB: %[[H:[^ ]+]] = arith.truncf %[[X]] : tensor<128xf32> to tensor<128xf16>
# LIB: %[[HX:[^ ]+]] = arith.extf %[[H]] : tensor<128xf16> to tensor<128xf32>
# LIB: tile.extern_elementwise "__nv_powf"(%{{.*}}, %{{.*}}) : (tensor<128xf32>, tensor<128xf32>)
# isnan / isinf return int32 converted to int1.
# LIB: %[[NAN:[^ ]+]] = tile.extern_elementwise "__nv_isnanf"({{.*}}) : (tensor<128xf32>) -> tensor<128xi32>
# LIB: arith.cmpi ne, %[[NAN]]
# LIB: tile.extern_elementwise "__nv_isinff"
# LIB: tile.extern_elementwise "__nv_signbitf"(%[[X]]) : (tensor<128xf32>) -> tensor<128xi32>
# LIB: tile.extern_elementwise "__nv_tanh"(%{{.*}}) : (tensor<128xf64>) -> tensor<128xf64>
# LIB: tile.extern_elementwise "__nv_llrint"(%{{.*}}) : (tensor<128xf64>) -> tensor<128xi64>
# LIB: tile.extern_elementwise "__nv_ldexp"(%{{.*}}, %{{.*}}) : (tensor<128xf64>, tensor<128xi32>) -> tensor<128xf64>


@triton.jit
def f64math(D, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    d = tl.load(D + offs)
    tl.store(D + offs, tl.exp(d) + tl.log(d) + tl.sin(d) + tl.erf(d) + tl.sigmoid(d) + tl.sqrt(d))

# F64-LABEL: func.func @f64math(
# F64: math.exp %{{.*}} : tensor<128xf64>
# F64: math.log %{{.*}} : tensor<128xf64>
# F64: math.sin %{{.*}} : tensor<128xf64>
# F64: math.erf %{{.*}} : tensor<128xf64>
# F64: math.sqrt %{{.*}} : tensor<128xf64>


# Dtype-call scalars (Triton's dtype.__call__): a constant of that dtype, or
# a conversion of a tensor.
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
