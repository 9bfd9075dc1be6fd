# Triton's type objects in kernels: `x.type` (a dtype, or a block type whose
# `element_ty` / `scalar` is the element's), a constexpr's `.value`,
# `tl.pointer_type(T)` and the casts that involve a pointer (tile.ptr_cast):
# loaded int64 addresses made pointers (the grouped GEMM tutorial's array of
# matrices), a pointer as another element type, a pointer as int64 / int1.
# A def decorated `@tl.constexpr` is called at compile time, as Triton does.
# RUN: ln-compile %s --kernel k --signature '*i64,*i32,*fp32' -D N=128 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*i64,*i32,*fp32' -D N=128 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: not ln-compile %s --kernel float_to_ptr --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not ln-compile %s --kernel ptr_to_float --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=TOFLOAT
# RUN: not ln-compile %s --kernel bad_pointer_type --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=PTRTYPE
# RUN: ln-compile %s --kernel dtypes --signature '*fp32,*fp32,*i8' -D N=128 --emit=tile | FileCheck %s --check-prefix=DTYPES
# RUN: not ln-compile %s --kernel bad_dtype_name --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=DTYPENAME
import triton
import triton.language as tl


@tl.constexpr
def needs_upcast(bits):
    return bits < 32


@triton.jit
def lowest(dtype):
    d = dtype.value  # helpers unwrap their constexpr parameters
    if d.is_floating():
        v: tl.constexpr = float("-inf")
        return v
    return -(2 ** (d.int_bitwidth - 1))


# CHECK-LABEL: func.func @k
# CHECK: tile.ptr_cast %{{.*}} : i64 -> !tile.ptr<f16>
# CHECK: tile.ptr_cast %{{.*}} : !tile.ptr<f16> -> !tile.ptr<i8>
# CHECK: tile.ptr_cast %{{.*}} : !tile.ptr<f32> -> i64
# CHECK: tile.ptr_cast %{{.*}} : !tile.ptr<f16> -> i64
# CHECK: arith.cmpi ne
# CHECK: tile.ptr_cast %{{.*}} : i64 -> !tile.ptr<f32>
# CHECK: arith.constant dense<0xFF800000> : tensor<128xf32>
# PTX: .visible .entry k
@triton.jit
def k(ptrs, sizes, out, N: tl.constexpr):
    g = tl.program_id(0)
    base = tl.load(ptrs + g).to(tl.pointer_type(tl.float16))
    n = tl.load(sizes + g)
    offs = tl.arange(0, N)
    xs = base + offs
    tl.static_assert(xs.type.is_block() and not base.type.is_block())
    tl.static_assert(xs.type.element_ty.element_ty == tl.float16)
    tl.static_assert(base.type.element_ty == tl.float16)
    x = tl.load(xs, mask=offs < n, other=0.0)
    tl.static_assert(x.type.scalar == tl.float16 and x.type.shape[0] == N)
    first = tl.load(base.to(tl.pointer_type(tl.int8)))
    addr = (out + g * N).to(tl.int64)
    nonnull = base.to(tl.int1)
    dst = addr.to(tl.pointer_type(out.type.element_ty))
    if needs_upcast(x.dtype.primitive_bitwidth):
        y = x.to(tl.float32)
    else:
        y = x
    y = y + first.to(tl.float32) + nonnull.to(tl.float32) + lowest(out.dtype.element_ty)
    tl.store(dst + offs, y, mask=offs < n)


@triton.jit
def float_to_ptr(X):
    # FLOAT: pointer-types.py:[[@LINE+1]]:9: error: cannot convert f32 to a pointer; only integer addresses can be
    p = tl.load(X).to(tl.pointer_type(tl.float32))
    tl.store(p, 1.0)


@triton.jit
def ptr_to_float(X):
    # TOFLOAT: pointer-types.py:[[@LINE+1]]:17: error: a pointer converts only to int64, int1 or another pointer type, not fp32
    tl.store(X, X.to(tl.float32))


@triton.jit
def bad_pointer_type(X):
    # PTRTYPE: pointer-types.py:[[@LINE+1]]:30: error: `tl.pointer_type` takes a scalar element dtype such as tl.float16, got tensor<16xi32>
    p = X.to(tl.pointer_type(tl.arange(0, 16)))


# dtype objects: tl.dtype("uint32") by Triton's name, Triton's is_* predicates,
# int_bitwidth, name; tensor.logical_and / logical_or take both sides as
# booleans.
# DTYPES-LABEL: func.func @dtypes
# DTYPES: arith.andi {{.*}} : tensor<128xi1>
# DTYPES: arith.ori {{.*}} : tensor<128xi1>
# DTYPES: arith.shrui
@triton.jit
def dtypes(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    u = tl.dtype("uint32")
    tl.static_assert(u.is_uint32() and not u.is_int_signed() and u.int_bitwidth == 32)
    tl.static_assert(x.dtype.is_fp32() and x.dtype.is_standard_floating())
    tl.static_assert(not x.dtype.is_int64() and x.dtype.name == "fp32")
    z = x.to(tl.int1).logical_and(y.to(tl.int1)) | x.logical_or(y)
    tl.store(Z + offs, z.to(tl.int8) + (x.to(u, bitcast=True) >> 31).to(tl.int8))


@triton.jit
def bad_dtype_name(X):
    # DTYPENAME: pointer-types.py:[[@LINE+1]]:18: error: `tl.dtype("float32")`: not a dtype Kiln supports (names as `dtype.name` spells them: int32, uint8, fp16, bf16, fp32, ...)
    d = tl.dtype("float32")
