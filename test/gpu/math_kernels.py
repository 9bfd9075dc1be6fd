# Kernels that apply every math builtin, libdevice wrapper, rounding cast,
# fp8 conversion and inline-asm form Kiln supports, to compare Triton 3.6 and
# Kiln on the GPU (test/gpu/cases_math.py: same inputs, same launch; bitwise
# where both compilers emit the same instruction or libdevice call, ULP-
# bounded elsewhere). No host code here.
#
# Every kernel is 1-D: program p handles X[p*BLOCK : (p+1)*BLOCK] masked by
# N; grid (cdiv(N, BLOCK),), num_warps=4. Signatures as ln-compile
# --signature strings (constexprs by -D):
#
#   tl_unary   (X *T, Y *R, N i32)  -D OP -D UPCAST=0|1 -D BLOCK
#       Y = f(x) (x upcast to fp32 first when UPCAST=1), OP indexes TL_UNARY:
#       0 sigmoid 1 erf 2 floor 3 ceil 4 log2 5 sin 6 cos 7 sqrt_rn 8 exp
#       9 exp2 10 log 11 sqrt 12 rsqrt 13 abs 14 x.sigmoid() 15 tl.math.erf
#       T = fp32 | fp64 (OP 7: fp32 only) | fp16/bf16 with UPCAST=1 | any float for OP 13
#   tl_binary  (X *T, Z *T, Y *T, N i32)  -D OP -D BLOCK
#       0 div_rn(x, z) 1 fdiv(x, z) 2 clamp(x, -z, z) 3 clamp(x, -1.5, z, ALL)
#       4 fma(x, z, x) 5 maximum(x, z, ALL) 6 minimum(x, z)
#       T = fp32 (all) | fp64, fp16, bf16 (OP >= 1; OP 1 on fp16/bf16 stores the fp32 quotient rounded)
#   umulhi_k   (X *T, Z *T, Y *T, N i32) -D BLOCK       T = i32 | u32 | i64 | u64
#   ld_unary   (X *T, Y *T, N i32)  -D OP -D BLOCK   libdevice.<LD_UNARY[OP]>(x), T = fp32 | fp64
#   ld_fast    (X *fp32, Y *fp32, N i32) -D OP -D BLOCK  libdevice.<LD_FAST[OP]>(x)
#   ld_binary  (X *T, Z *T, Y *T, N i32) -D OP -D BLOCK  0 pow 1 atan2 2 hypot 3 fmod 4 copysign
#              5 fdim 6 nextafter 7 remainder; T = fp32 | fp64
#   ld_powi    (X *T, E *i32, Y *T, N i32) -D BLOCK      libdevice.pow(x, int32 e)
#   ld_pred    (X *T, Y *i32, N i32) -D OP -D BLOCK   0 isnan 1 isinf 2 signbit 3 finitef/isfinited
#   ld_int     (X *T, Y *T, N i32) -D OP -D BLOCK     0 popc 1 clz 2 brev 3 ffs  T = i32 | i64
#   cast_round (X *S, Y *D, N i32) -D RTZ=0|1 -D BLOCK   x.to(D, fp_downcast_rounding)
#              S,D = fp32,fp16 | fp32,bf16 | fp64,fp32 (rtne and rtz)
#   fp8_roundtrip (X *S, Q *F8, Y *S, N i32) -D BLOCK  Q = x.to(F8); Y = Q.to(S)
#              F8 = fp8e4nv | fp8e5, S = fp32 | fp16 | bf16 (sm_89+)
#   bitcast_k  (X *fp32, Y *i32, N i32) -D BLOCK     x.to(tl.int32, bitcast=True) ^ 1
#   quant_i8   (X *fp32, Y *i8, N i32) -D BLOCK      int8 quantizer: rint(clamp(x*127, -128, 127))
#   asm_shf    (X *u32, Y *u32, N i32) -D BLOCK      shf.l.wrap.b32 y, x, x, 5 (pack 1)
#   asm_pack4  (X *u8, Y *u8, Z *u8, N i32) -D BLOCK  pack=4 bytes per 32-bit register,
#              two results: x ^ 1 and ~x per byte
# RUN: rm -rf %t && mkdir -p %t
# RUN: ln-compile %s --kernel tl_unary --signature '*fp32,*fp32,i32' -D OP=0 -D UPCAST=0 -D BLOCK=256 --emit=ptx -o %t/a.ptx
# RUN: ln-compile %s --kernel tl_binary --signature '*fp32,*fp32,*fp32,i32' -D OP=0 -D BLOCK=256 --emit=ptx -o %t/b.ptx
# RUN: ln-compile %s --kernel umulhi_k --signature '*u64,*u64,*u64,i32' -D BLOCK=256 --emit=ptx -o %t/c.ptx
# RUN: ln-compile %s --kernel cast_round --signature '*fp32,*bf16,i32' -D RTZ=1 -D BLOCK=256 --emit=ptx -o %t/d.ptx
# RUN: ln-compile %s --kernel bitcast_k --signature '*fp32,*i32,i32' -D BLOCK=256 --emit=ptx -o %t/e.ptx
# RUN: ln-compile %s --kernel asm_shf --signature '*u32,*u32,i32' -D BLOCK=256 --emit=ptx -o %t/f.ptx
# RUN: ln-compile %s --kernel asm_pack4 --signature '*u8,*u8,*u8,i32' -D BLOCK=256 --emit=ptx -o %t/g.ptx
# RUN: ln-compile %s --kernel tl_unary --signature '*fp16,*fp16,i32' -D OP=4 -D UPCAST=1 -D BLOCK=256 --emit=ptx -o %t/h.ptx
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def tl_unary(X, Y, N, OP: tl.constexpr, UPCAST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1.0)
    if UPCAST:
        x = x.to(tl.float32)
    if OP == 0:
        y = tl.sigmoid(x)
    elif OP == 1:
        y = tl.erf(x)
    elif OP == 2:
        y = tl.floor(x)
    elif OP == 3:
        y = tl.ceil(x)
    elif OP == 4:
        y = tl.log2(x)
    elif OP == 5:
        y = tl.sin(x)
    elif OP == 6:
        y = tl.cos(x)
    elif OP == 7:
        y = tl.sqrt_rn(x)
    elif OP == 8:
        y = tl.exp(x)
    elif OP == 9:
        y = tl.exp2(x)
    elif OP == 10:
        y = tl.log(x)
    elif OP == 11:
        y = tl.sqrt(x)
    elif OP == 12:
        y = tl.rsqrt(x)
    elif OP == 13:
        y = tl.abs(x)
    elif OP == 14:
        y = x.sigmoid()
    else:
        y = tl.math.erf(x)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def tl_binary(X, Z, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1.0)
    z = tl.load(Z + offs, mask=mask, other=1.0)
    if OP == 0:
        y = tl.div_rn(x, z)
    elif OP == 1:
        y = tl.fdiv(x, z)
    elif OP == 2:
        y = tl.clamp(x, -z, z)
    elif OP == 3:
        y = tl.clamp(x, -1.5, z, propagate_nan=tl.PropagateNan.ALL)
    elif OP == 4:
        y = tl.fma(x, z, x)
    elif OP == 5:
        y = tl.maximum(x, z, propagate_nan=tl.PropagateNan.ALL)
    else:
        y = tl.minimum(x, z)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def umulhi_k(X, Z, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    z = tl.load(Z + offs, mask=mask)
    tl.store(Y + offs, tl.umulhi(x, z), mask=mask)


@triton.jit
def ld_unary(X, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.5)
    if OP == 0:
        y = libdevice.tanh(x)
    elif OP == 1:
        y = libdevice.exp(x)
    elif OP == 2:
        y = libdevice.exp2(x)
    elif OP == 3:
        y = libdevice.exp10(x)
    elif OP == 4:
        y = libdevice.expm1(x)
    elif OP == 5:
        y = libdevice.log(x)
    elif OP == 6:
        y = libdevice.log2(x)
    elif OP == 7:
        y = libdevice.log10(x)
    elif OP == 8:
        y = libdevice.log1p(x)
    elif OP == 9:
        y = libdevice.erf(x)
    elif OP == 10:
        y = libdevice.erfc(x)
    elif OP == 11:
        y = libdevice.erfinv(x)
    elif OP == 12:
        y = libdevice.rint(x)
    elif OP == 13:
        y = libdevice.round(x)
    elif OP == 14:
        y = libdevice.trunc(x)
    elif OP == 15:
        y = libdevice.nearbyint(x)
    elif OP == 16:
        y = libdevice.rsqrt(x)
    elif OP == 17:
        y = libdevice.sqrt_rn(x)
    elif OP == 18:
        y = libdevice.sinh(x)
    elif OP == 19:
        y = libdevice.cosh(x)
    elif OP == 20:
        y = libdevice.atan(x)
    elif OP == 21:
        y = libdevice.asin(x)
    elif OP == 22:
        y = libdevice.acos(x)
    elif OP == 23:
        y = libdevice.cbrt(x)
    elif OP == 24:
        y = libdevice.lgamma(x)
    elif OP == 25:
        y = libdevice.tan(x)
    elif OP == 26:
        y = libdevice.sin(x)
    elif OP == 27:
        y = libdevice.cos(x)
    elif OP == 28:
        y = libdevice.floor(x)
    elif OP == 29:
        y = libdevice.ceil(x)
    elif OP == 30:
        y = libdevice.abs(x)
    elif OP == 31:
        y = libdevice.asinh(x)
    elif OP == 32:
        y = libdevice.acosh(x)
    elif OP == 33:
        y = libdevice.atanh(x)
    elif OP == 34:
        y = libdevice.normcdf(x)
    elif OP == 35:
        y = libdevice.tgamma(x)
    else:
        y = libdevice.sqrt(x)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def ld_fast(X, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.5)
    if OP == 0:
        y = libdevice.fast_expf(x)
    elif OP == 1:
        y = libdevice.fast_logf(x)
    elif OP == 2:
        y = libdevice.fast_tanf(x)
    elif OP == 3:
        y = libdevice.fast_sinf(x)
    elif OP == 4:
        y = libdevice.fast_cosf(x)
    elif OP == 5:
        y = libdevice.fast_log2f(x)
    elif OP == 6:
        y = libdevice.fast_exp10f(x)
    elif OP == 7:
        y = libdevice.fast_log10f(x)
    else:
        y = libdevice.fast_powf(x, 1.5)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def ld_binary(X, Z, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1.0)
    z = tl.load(Z + offs, mask=mask, other=1.0)
    if OP == 0:
        y = libdevice.pow(x, z)
    elif OP == 1:
        y = libdevice.atan2(x, z)
    elif OP == 2:
        y = libdevice.hypot(x, z)
    elif OP == 3:
        y = libdevice.fmod(x, z)
    elif OP == 4:
        y = libdevice.copysign(x, z)
    elif OP == 5:
        y = libdevice.fdim(x, z)
    elif OP == 6:
        y = libdevice.nextafter(x, z)
    else:
        y = libdevice.remainder(x, z)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def ld_powi(X, E, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1.0)
    e = tl.load(E + offs, mask=mask, other=0)
    tl.store(Y + offs, libdevice.pow(x, e), mask=mask)


@triton.jit
def ld_pred(X, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    if OP == 0:
        y = libdevice.isnan(x).to(tl.int32)
    elif OP == 1:
        y = libdevice.isinf(x).to(tl.int32)
    elif OP == 2:
        y = libdevice.signbit(x)
    else:
        if x.dtype == tl.float64:
            y = libdevice.isfinited(x).to(tl.int32)
        else:
            y = libdevice.finitef(x).to(tl.int32)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def ld_int(X, Y, N, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0)
    if OP == 0:
        y = libdevice.popc(x)
    elif OP == 1:
        y = libdevice.clz(x)
    elif OP == 2:
        y = libdevice.brev(x)
    else:
        y = libdevice.ffs(x)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def cast_round(X, Y, N, RTZ: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    if RTZ:
        y = x.to(Y.dtype.element_ty, fp_downcast_rounding="rtz")
    else:
        y = x.to(Y.dtype.element_ty, fp_downcast_rounding="rtne")
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def fp8_roundtrip(X, Q, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    q = x.to(Q.dtype.element_ty)
    tl.store(Q + offs, q, mask=mask)
    q2 = tl.load(Q + offs, mask=mask)
    tl.store(Y + offs, q2.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def bitcast_k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    tl.store(Y + offs, x.to(tl.int32, bitcast=True) ^ 1, mask=mask)


@triton.jit
def quant_i8(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    q = libdevice.rint(tl.clamp(x * 127.0, -128.0, 127.0))
    tl.store(Y + offs, q.to(tl.int8), mask=mask)


@triton.jit
def asm_shf(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0)
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, 5;", "=r,r,r", [x, x],
                                  dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def asm_pack4(X, Y, Z, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0)
    # Two results from one instance over 4 packed bytes, each byte on its own
    # (so the result does not depend on which elements share a register).
    y, z = tl.inline_asm_elementwise(
        "xor.b32 $0, $2, 0x01010101; not.b32 $1, $2;", "=r,=r,r", [x],
        dtype=(tl.uint8, tl.uint8), is_pure=True, pack=4)
    tl.store(Y + offs, y, mask=mask)
    tl.store(Z + offs, z, mask=mask)
