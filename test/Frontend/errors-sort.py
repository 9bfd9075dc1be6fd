# Misuse of tl.sort / tl.bitonic_merge / tl.topk / tl.flip / tl.gather / tl.histogram.
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK)[:, None] * 4 + tl.arange(0, 4)[None, :])
    # expected-error @+1 {{`tl.sort` only sorts along the last dimension (dim=1 for rank 2), got dim=0}}
    s = tl.sort(x, dim=0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK)[:, None] * 4 + tl.arange(0, 4)[None, :])
    # expected-error @+1 {{`tl.bitonic_merge` only sorts along the last dimension (dim=1 for rank 2), got dim=0}}
    s = tl.bitonic_merge(x, dim=0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`descending` of `tl.bitonic_merge` must be a constexpr bool, got tensor<128xf32>}}
    s = tl.bitonic_merge(x, descending=x)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    # expected-error @+1 {{`x` of `tl.sort` must be a tensor of numbers, got f32}}
    s = tl.sort(tl.load(X))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    # expected-error @+1 {{`x` of `tl.sort` must be a tensor of numbers, got tensor<128x!tile.ptr<f32>>}}
    s = tl.sort(X + tl.arange(0, BLOCK))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`descending` of `tl.sort` must be a constexpr bool, got tensor<128xf32>}}
    s = tl.sort(x, descending=x)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`k` of `tl.topk` must be a power of two in [1, 128], got 3}}
    s = tl.topk(x, 3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`k` of `tl.topk` must be a power of two in [1, 128], got 256}}
    s = tl.topk(x, 256)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{axis 1 is out of range for a tensor of rank 1}}
    s = tl.flip(x, 1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    i = tl.load(I + tl.arange(0, BLOCK)[:, None] + tl.arange(0, 2)[None, :])
    # expected-error @+1 {{source and index tensors of `tl.gather` must have the same rank, got [128] and [128, 2]}}
    s = tl.gather(x, i, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`index` of `tl.gather` must be a tensor of integers, got tensor<128xf32>}}
    s = tl.gather(x, x, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK)[:, None] * 4 + tl.arange(0, 4)[None, :])
    i = tl.load(I + tl.arange(0, 64)[:, None] * 4 + tl.arange(0, 2)[None, :])
    # expected-error @+1 {{index shape [64, 2] of `tl.gather` must match the source shape [128, 4] in dimension 0 (all but axis 1)}}
    s = tl.gather(x, i, 1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{axis -2 is out of range for a tensor of rank 1}}
    s = x.gather(i, -2)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    # expected-error @+1 {{`tl.histogram` only supports integer input, got tensor<128xf32>}}
    h = tl.histogram(x, 16)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK)[:, None] + tl.arange(0, 2)[None, :])
    # expected-error @+1 {{`tl.histogram` only supports 1-D input, got tensor<128x2xi32>}}
    h = tl.histogram(i, 16)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{`num_bins` of `tl.histogram` must be a power of two (the result is a tensor of that many bins), got 10}}
    h = tl.histogram(i, 10)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{`mask` of `tl.histogram` must have boolean scalar type, got tensor<128xi32>}}
    h = i.histogram(16, mask=i)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, I, BLOCK: tl.constexpr):
    i = tl.load(I + tl.arange(0, BLOCK))
    # expected-error @+1 {{`num_bins` of `tl.histogram` must be a constexpr integer, got i32}}
    h = tl.histogram(i, tl.load(I))
