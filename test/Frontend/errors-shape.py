# Misuse of the shape builtins: each error names the place and the reason.
# RUN: ln-compile %s --kernel k --signature '*fp16:16,*i32:16' -D BM=16 -D BN=32 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.trans` of a rank-1 tensor [16] needs a permutation of its 1 dimensions, got (1, 0)}}
    y = tl.trans(r)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{dimensions of `tl.permute` must be a permutation of 0..1, got (0, 0)}}
    y = tl.permute(x, 0, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{dimensions of `tl.permute` must be a permutation of 0..1, got (0, 2)}}
    y = x.permute(0, 2)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.permute` needs the permutation of the dimensions, e.g. tl.permute(x, 1, 0)}}
    y = tl.permute(x)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.permute` of a rank-2 tensor [16, 32] needs a permutation of its 2 dimensions, got (1, 0, 2)}}
    y = tl.permute(x, (1, 0, 2))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.reshape` cannot change the number of elements: [16] has 16, [8, 8] has 64}}
    y = tl.reshape(r, 8, 8)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{shape element 0 of `tl.reshape` is 3, which is not a power of two}}
    y = tl.reshape(x, 3, 4)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`input` of `tl.reshape` must be a tensor, got constexpr int 1}}
    y = tl.reshape(1, 1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.reshape` got an unexpected keyword argument `foo`}}
    y = tl.reshape(x, 512, foo=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`can_reorder` of `tl.reshape` must be a constexpr bool, got tensor<16xi32>}}
    y = x.reshape(512, can_reorder=r)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.view` cannot change the number of elements: [16, 32] has 512, [8, 8] has 64}}
    y = tl.view(x, 8, 8)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`x` of `tl.ravel` must be a tensor, got constexpr int 3}}
    y = tl.ravel(3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.cat` requires can_reorder=True (Triton 3.6 may reorder the elements of a concatenation)}}
    y = tl.cat(r, r)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.cat` concatenates 1-D tensors, got shape [16, 32]}}
    y = tl.cat(x, x, can_reorder=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.cat` needs operands of one type, got tensor<16xi32> and tensor<16xf32>}}
    y = tl.cat(r, r.to(tl.float32), can_reorder=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.cat` needs operands of one shape, got [16] and [32]}}
    y = tl.cat(r, c, can_reorder=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.split` needs a last dimension of size 2, got a tensor of shape [16]}}
    a, b = tl.split(r)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.join` needs operands of one type, got tensor<16xi32> and tensor<16xf32>}}
    y = tl.join(r, r.to(tl.float32))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{incompatible shapes [16] and [32] for `tl.join`}}
    y = tl.join(r, c)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{incompatible shapes [16] and [32] for `tl.interleave`}}
    y = tl.interleave(r, c)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`.T` transposes 2-D tensors, got tensor<16xi32>}}
    y = r.T

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`value` of `tl.full_like` must be a scalar, got tensor<16xi32>}}
    y = tl.full_like(x, r)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    # expected-error @+1 {{`tl.full_like` of a pointer tensor needs a numeric `dtype`, got !tile.ptr<f16>}}
    y = tl.full_like(X, 0)
