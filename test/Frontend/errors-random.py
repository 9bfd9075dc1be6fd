# Misuse of the random builtins, tl.umulhi, tl.sin/cos and bitcasts: float or
# pointer seeds and offsets, runtime or negative n_rounds, 16-bit philox
# counters, counters of different widths, float umulhi operands.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32,fp32,i16,i64' \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    offs = tl.arange(0, 16)
    # expected-error @+1 {{`offset` of `tl.rand` must be an integer scalar or tensor, got tensor<16xf32>}}
    r = tl.rand(seed, offs.to(tl.float32))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`seed` of `tl.randint` must be an integer, got f32}}
    r = tl.randint(f, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`seed` of `tl.randn` must be an integer, got constexpr float 1.5}}
    r = tl.randn(1.5, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`offset` of `tl.randint4x` must be an integer scalar or tensor, got !tile.ptr<f32>}}
    a, b, c, d = tl.randint4x(seed, X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`n_rounds` of `tl.rand` must be a constexpr integer, got i32}}
    r = tl.rand(seed, 0, seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`n_rounds` of `tl.randn4x` must not be negative, got -1}}
    a, b, c, d = tl.randn4x(seed, 0, n_rounds=-1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.philox` needs 32- or 64-bit integer counters, got i16}}
    a, b, c, d = tl.philox(seed, h, h, h, h)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.philox` counters must have the same width, got i32 and i64}}
    a, b, c, d = tl.philox(seed, seed, l, seed, seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`c2` of `tl.philox` must be an integer scalar or tensor, got f32}}
    a, b, c, d = tl.philox(seed, seed, seed, f, seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.philox` got an unexpected keyword argument `rounds`}}
    a, b, c, d = tl.philox(seed, 0, 0, 0, 0, rounds=7)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.uint_to_uniform_float` expects int32, uint32, int64 or uint64 values, got i16}}
    u = tl.uint_to_uniform_float(h)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.umulhi` expects int32, int64, uint32 or uint64 values, got f32}}
    x = tl.umulhi(f, seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.umulhi` expects int32, int64, uint32 or uint64 values, got i16}}
    x = tl.umulhi(h, h)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{`tl.sin` expects fp32 or fp64 values, got i32 (convert with .to(tl.float32))}}
    x = tl.sin(seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{unknown attribute `tl.math.erff`}}
    x = tl.math.cos(f) + tl.math.floor(f) + tl.math.erff(f)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{dtype not supported in philox_impl: `c0` must be uint32 or uint64, got i32}}
    a = tl.philox_impl(seed, seed, seed, seed, seed, seed)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, seed, f, h, l):
    # expected-error @+1 {{cannot bitcast a pointer (!tile.ptr<f32>) to int64}}
    x = tl.cast(X, tl.int64, bitcast=True)
