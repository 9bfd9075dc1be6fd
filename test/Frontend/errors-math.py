# Misuse of the math builtins, libdevice wrappers, rounding casts and inline
# assembly: each error names the builtin, the argument and the reason.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,*i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.erf` expects fp32 or fp64 values, got tensor<128xf16> (convert with .to(tl.float32))}}
    y = tl.erf(h)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.sigmoid` expects fp32 or fp64 values, got tensor<128xf16> (convert with .to(tl.float32))}}
    y = tl.sigmoid(h)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.div_rn` expects fp32 values, got tensor<128xf16> (convert with .to(tl.float32))}}
    y = tl.div_rn(h, x)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.sqrt_rn` expects fp32 values, got tensor<128xi32> (convert with .to(tl.float32))}}
    y = tl.sqrt_rn(i)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{both operands of `tl.fdiv` must have floating scalar type, got tensor<128xi32>}}
    y = tl.fdiv(x, i)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.clamp` supports only floating-point values, got tensor<128xi32>}}
    y = tl.clamp(i, 0, 10)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`propagate_nan` must be tl.PropagateNan.ALL or NONE}}
    y = tl.clamp(x, 0.0, 1.0, propagate_nan=1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{invalid rounding mode `rtn`; supported rounding modes are 'rtne' and 'rtz'}}
    y = x.to(tl.float16, fp_downcast_rounding="rtn")

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{fp_downcast_rounding should be set only for truncating fp conversions; this converts fp16 to fp32}}
    y = h.to(tl.float32, fp_downcast_rounding="rtz")

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{fp_downcast_rounding should be set only for truncating fp conversions; this converts fp32 to int32}}
    y = x.to(tl.int32, fp_downcast_rounding="rtne")

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`libdevice.tanh` expects (fp32) or (fp64) arguments, got (fp16)}}
    y = libdevice.tanh(h)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`libdevice.pow` expects (fp32, int32), (fp64, int32), (fp32, fp32) or (fp64, fp64) arguments, got (int32, int32)}}
    y = libdevice.pow(i, 2)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`libdevice.tanh` takes at most 1 argument but 2 were given}}
    y = libdevice.tanh(x, x)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`libdevice.ldexp` expects numbers, got tensor<128x!tile.ptr<f32>>}}
    y = libdevice.ldexp(X + offs, 1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{unknown attribute `libdevice.no_such_fn`}}
    y = libdevice.no_such_fn(x)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`tl.extra.cuda.convert_custom_float8_sm80` is not supported}}
    y = tl.extra.cuda.convert_custom_float8_sm80(x, tl.float8e4b15)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{bad constraints for `tl.inline_asm_elementwise`: the constraints name 1 input but the assembly has 2 input registers}}
    y = tl.inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r", [i, i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{bad constraints for `tl.inline_asm_elementwise`: constraint `h` is a 16-bit register but input 0 is 32 bits}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,h", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{bad constraints for `tl.inline_asm_elementwise`: unknown constraint `q` (NVPTX registers: b, c, h, r, l, f, d; `n` immediates, digits tie to an output, `~{...}` clobbers)}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,q", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # A `$` that names no operand (a fuzzer's find: LLVM's printer aborted on it).
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `$` at offset 11 of the assembly is not followed by an operand number (`$0`, `${0}`; `$$` for a literal `$`)}}
    y = tl.inline_asm_elementwise("add.u32 ,,1$ $0 1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: the assembly refers to operand $2 but has 2 operands}}
    y = tl.inline_asm_elementwise("add.u32 $0, $1, $2;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # An empty modifier (a fuzzer's find: LLVM's printer aborted on `${1:}`).
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${1:` at offset 17 of the assembly needs the modifier `r` (the only one NVPTX prints for a register)}}
    y = tl.inline_asm_elementwise("add.u32 ${0}, 1, ${1:}r;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${0:` at offset 8 of the assembly needs the modifier `r` (the only one NVPTX prints for a register)}}
    y = tl.inline_asm_elementwise("add.u32 ${0:c}, $1, 1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${` at offset 12 of the assembly is not closed by `}`}}
    y = tl.inline_asm_elementwise("add.u32 $0, ${1:rr}, 1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${` at offset 14 of the assembly is not closed by `}`}}
    y = tl.inline_asm_elementwise("mov.b32 ${0}, ${1", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${:foo}` at offset 0 of the assembly is not one of `${:uid}`, `${:comment}`, `${:private}`}}
    y = tl.inline_asm_elementwise("${:foo} mov.b32 $0, $1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `${:` at offset 16 of the assembly is not closed by `}`}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1; ${:uid", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(I + offs)
    # `$$`, `${N}`, `${N:r}` and `${:uid}` are fine, and so is a template ending in an operand.
    y = tl.inline_asm_elementwise("// $$ ${:uid} \n add.u32 ${0}, ${1:r}, 1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)
    z = tl.inline_asm_elementwise("mov.b32 $0, $1", "=r,r", [y], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(I + offs, z)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{bad constraints for `tl.inline_asm_elementwise`: the constraints name 1 output but the assembly has 2 output registers}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [i], dtype=(tl.int32, tl.int32), is_pure=True, pack=1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{the number of elements (128) is not a multiple of `pack` (3)}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=3)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`pack` of `tl.inline_asm_elementwise` must be positive, got 0}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=0)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`dtype` of `tl.inline_asm_elementwise` must be a dtype or a tuple of dtypes, got constexpr int 3}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [i], dtype=3, is_pure=True, pack=1)

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    h = tl.load(H + offs)
    i = tl.load(I + offs)
    # expected-error @+1 {{`is_pure` of `tl.inline_asm_elementwise` must be a constexpr bool, got tensor<128xi32>}}
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [i], dtype=tl.int32, is_pure=i, pack=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    q = tl.load(X + offs).to(tl.float8e5)
    # expected-error @+1 {{cannot apply `+`: arithmetic on fp8e5 is not supported; convert with .to(tl.float32) first}}
    y = q + 1.0

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{fp_downcast_rounding="rtz" to fp8e4nv is not supported (fp8 conversions round to nearest even)}}
    y = x.to(tl.float8e4nv, fp_downcast_rounding="rtz")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, H, I, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.float8e4b15` is not supported (Kiln's dtypes: int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, float8e4nv, float8e5)}}
    y = tl.float8e4b15
