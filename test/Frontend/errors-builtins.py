# Errors in calls of triton.language builtins: arguments (names, counts,
# kinds), shapes, dtypes, masks, atomics' sem / scope values, reductions.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`other` given without `mask`}}
    x = tl.load(X + offs, other=0.)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.arange` length 1000 is not a power of two}}
    offs = tl.arange(0, 1000)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.arange` arguments must be constexpr integers, got i32}}
    offs = tl.arange(0, N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.arange` end (0) must be greater than start (16)}}
    offs = tl.arange(16, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.program_id` axis must be 0, 1 or 2, got 3}}
    pid = tl.program_id(3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.load` is missing required argument `pointer`}}
    x = tl.load()

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`tl.load` got an unexpected keyword argument `maks`}}
    x = tl.load(X + offs, maks=offs < N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.arange` takes at most 2 arguments but 3 were given}}
    offs = tl.arange(0, 128, 2)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.store` got multiple values for argument `value`}}
    tl.store(X, 1.0, value=2.0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.load` expects a pointer or a tensor of pointers, got i32}}
    x = tl.load(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`mask` of `tl.load` must be boolean (int1), got tensor<128xi32>}}
    x = tl.load(X + offs, mask=offs)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`mask` of `tl.load` is a tensor (tensor<128xi1>) but the pointer is a scalar}}
    x = tl.load(X, mask=offs < N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`value` of `tl.store` is a tensor (tensor<128xi32>) but the pointer is a scalar}}
    tl.store(X, offs)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    b = tl.arange(0, 64)
    # expected-error @+1 {{`mask` of `tl.load` has shape [64], which does not broadcast with the pointer's [128]}}
    x = tl.load(X + a, mask=b < N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(Y + offs)
    # expected-error @+1 {{`tl.exp` expects fp32 or fp64 values, got tensor<128xf16> (convert with .to(tl.float32))}}
    e = tl.exp(h)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{shape element 0 of `tl.zeros` is 100, which is not a power of two}}
    z = tl.zeros([100], dtype=tl.float32)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{shape of `tl.zeros` must be a list or tuple of constexpr integers, e.g. [BLOCK], got constexpr int 128}}
    z = tl.zeros(BLOCK, dtype=tl.float32)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`dtype` of `tl.zeros` must be a dtype such as tl.float32, got constexpr int 3}}
    z = tl.zeros([BLOCK], dtype=3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{tensor of shape (2048, 1024) has more than 1048576 elements}}
    z = tl.zeros([2048, 1024], dtype=tl.float32)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.zeros([BLOCK], dtype=tl.float32)
    # expected-error @+1 {{axis 1 is out of range for a tensor of rank 1}}
    s = tl.sum(x, axis=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.zeros([BLOCK], dtype=tl.float32)
    # expected-error @+1 {{`tl.max` with indices needs an `axis`, got None}}
    m = tl.max(x, return_indices=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.sum` expects a tensor of numbers, got i32}}
    s = tl.sum(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{static assertion failed: BLOCK must be small}}
    tl.static_assert(BLOCK <= 64, "BLOCK must be small")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.static_assert` needs a constexpr condition, got i1}}
    tl.static_assert(N > 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`tl.multiple_of` needs one value per dimension: got 2 for a value of rank 1}}
    o = tl.multiple_of(offs, [16, 16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`sem="weak"` of `tl.atomic_add`: expected "acquire", "release", "acq_rel" or "relaxed"}}
    tl.atomic_add(X, 1.0, sem="weak")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.atomic_max` on floating-point values (fp16) is not supported (fp32 and fp64 are)}}
    tl.atomic_max(Y, 1.0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    b = tl.zeros([BLOCK], dtype=tl.float32)
    # expected-error @+1 {{`scope="block"` of `tl.atomic_xchg`: expected "gpu", "cta" or "sys"}}
    tl.atomic_xchg(X, 0.0, scope="block")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{cannot bitcast fp32 to int64: the widths differ (32 and 64 bits)}}
    y = x.to(tl.int64, bitcast=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{cannot convert f32 to a pointer; only integer addresses can be}}
    y = x.to(X.dtype)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`range` can only be the iterable of a `for` loop}}
    r = range(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`boundary_check` of `tl.load` needs a block pointer (from `tl.make_block_ptr`): the compiler does not know the bounds of a pointer tensor}}
    x = tl.load(X, boundary_check=(0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unknown cache modifier `.xx` for `tl.load` (expected .ca, .cg or .cv)}}
    x = tl.load(X, cache_modifier=".xx")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    b = tl.arange(0, 64)
    # expected-error @+1 {{incompatible shapes [128] and [64] for `tl.where`}}
    w = tl.where(a < N, a, b)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`float()` of a runtime value is not supported; use .to(...)}}
    f = float(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{isinstance() arg 2 must be a type or a tuple of types, got constexpr int 3}}
    f = isinstance(N, 3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.tensor` is a type: kernels can only test values against it with isinstance()}}
    t = tl.tensor(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.assume` of a condition that is false}}
    tl.assume(BLOCK < 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.assume` expects a boolean condition, got}}
    tl.assume(N + 1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{the prefix of `tl.device_print` must be a constexpr string, got i32}}
    tl.device_print(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.fma` expects floating-point values, got i32}}
    y = tl.fma(N, N, N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.atomic_add` expects a pointer or a tensor of pointers, got constexpr int 3}}
    tl.atomic_add(3, 1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{xor_sum only supported for integers, got tensor<128xf32>}}
    m = tl.xor_sum(tl.arange(0, BLOCK).to(tl.float32), axis=0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`triton.jit` can only be used as a decorator}}
    f = triton.jit(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{invalid rounding mode `rtu`; supported rounding modes are 'rtne' and 'rtz'}}
    y = x.to(tl.float16, fp_downcast_rounding="rtu")

# -----
import triton
import triton.language as tl


@triton.jit
def one_arg(x):
    return x


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`one_arg` must take 2 arguments (`pack` scalars per tensor), it takes 1}}
    y = tl.map_elementwise(one_arg, x, pack=2)

# -----
import triton
import triton.language as tl


@triton.jit
def two_args(x, y):
    return x + y


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{the number of elements (128) is not a multiple of `pack` (3)}}
    y = tl.map_elementwise(two_args, x, x, pack=3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`scalar_fn` of `tl.map_elementwise` must be a @triton.jit function, got}}
    y = tl.map_elementwise(x, x)
