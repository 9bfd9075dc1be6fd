# Misuse of tl.reduce / tl.associative_scan and the builtins on them.
# RUN: ln-compile %s --kernel k --signature '*fp32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{axis 1 is out of range for a tensor of rank 1}}
    s = tl.reduce(x, 1, add)

# -----
import triton
import triton.language as tl


@triton.jit
def add3(a, b, c):
    return a + b + c


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{combine_fn `add3` of `tl.reduce` must take 2 arguments (two per input), it takes 3}}
    s = tl.reduce(x, 0, add3)

# -----
import triton
import triton.language as tl


@triton.jit
def both(a, b):
    return a, b


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{combine_fn `both` of `tl.associative_scan` must return 1 value, one per input, but returns 2}}
    s = tl.associative_scan(x, 0, both)

# -----
import triton
import triton.language as tl


def plain(a, b):
    return a + b


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`combine_fn` of `tl.reduce` must be a @triton.jit function; `plain` is not}}
    s = tl.reduce(x, 0, plain)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`combine_fn` of `tl.reduce` must be a @triton.jit function, got constexpr int 3}}
    s = tl.reduce(x, 0, 3)

# -----
import triton
import triton.language as tl


@triton.jit
def to_int(a, b):
    return (a + b).to(tl.int32)


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{combine_fn `to_int` of `tl.reduce` must return f32, got i32}}
    s = tl.reduce(x, 0, to_int)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{axis -2 is out of range for a tensor of rank 1}}
    s = tl.cumsum(x, -2)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{reduce_or only supported for integers, got tensor<128xf32>}}
    s = tl.reduce_or(x, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`tl.argmax` with indices needs an `axis`, got None}}
    s = tl.argmax(x, None)

# -----
import triton
import triton.language as tl


@triton.jit
def pick(a, ai, b, bi):
    return a, ai


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    i = tl.arange(0, 2 * BLOCK)
    # expected-error @+1 {{inputs of `tl.reduce` must have one shape, got [128] and [256]}}
    s = tl.reduce((x, i), 0, pick)

# -----
import triton
import triton.language as tl


@triton.jit
def one(a, ai, b, bi):
    return a


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    i = tl.arange(0, BLOCK)
    # expected-error @+1 {{combine_fn `one` of `tl.reduce` must return 2 values, one per input, but returns 1}}
    v, j = tl.reduce((x, i), 0, one)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`keep_dims` of `tl.argmin` must be a constexpr bool, got tensor<128xf32>}}
    s = tl.argmin(x, 0, keep_dims=x)
