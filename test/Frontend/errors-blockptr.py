# Misuses of block pointers (tl.make_block_ptr, tl.advance, tl.load/tl.store
# with boundary_check / padding_option), each with Triton's rule.
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32,i32,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`base` of `tl.make_block_ptr` must be a scalar pointer, got i32}}
    p = tl.make_block_ptr(M, (M,), (1,), (0,), (BLOCK,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{block_shape element 0 of `tl.make_block_ptr` is 100, which is not a power of two}}
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (100,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`block_shape` of `tl.make_block_ptr` must hold constexpr integers, got i32}}
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (N,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`order` of `tl.make_block_ptr` must be a permutation of (0, 1, ..., len(order) - 1), got (1, 1)}}
    p = tl.make_block_ptr(X, (M, N), (N, 1), (0, 0), (BLOCK, BLOCK), (1, 1))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`shape`, `strides`, `offsets`, `block_shape` and `order` of `tl.make_block_ptr` must have the same length (got 2, 2, 1, 2, 2)}}
    p = tl.make_block_ptr(X, (M, N), (N, 1), (0,), (BLOCK, BLOCK), (1, 0))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{block pointers only support 32-bit `offsets`; add a `.to(tl.int32)` or use regular indexing for 64-bit support}}
    p = tl.make_block_ptr(X, (M,), (1,), (M.to(tl.int64),), (BLOCK,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{block pointers only support 32-bit `offsets`, got 5000000000, which is out of range}}
    p = tl.make_block_ptr(X, (M,), (1,), (5000000000,), (BLOCK,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`shape` of `tl.make_block_ptr` must hold scalars, got tensor<128xi32>}}
    p = tl.make_block_ptr(X, (tl.arange(0, BLOCK),), (1,), (0,), (BLOCK,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`strides` of `tl.make_block_ptr` must hold integers, got constexpr float 1.5}}
    p = tl.make_block_ptr(X, (M,), (1.5,), (0,), (BLOCK,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`mask` and `other` cannot be given when loading through a block pointer (use `boundary_check` and `padding_option`)}}
    x = tl.load(p, mask=M > 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(Y, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{padding option `nan` is not supported for integer block pointers}}
    x = tl.load(p, boundary_check=(0,), padding_option="nan")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{unknown padding option `inf` (expected "zero" or "nan")}}
    x = tl.load(p, padding_option="inf")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`boundary_check` dimension 1 is out of range for a block pointer of rank 1}}
    x = tl.load(p, boundary_check=(1,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M, N), (N, 1), (0, 0), (BLOCK, BLOCK), (1, 0))
    # expected-error @+1 {{duplicate dimension 0 in `boundary_check`}}
    x = tl.load(p, boundary_check=(0, 0))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`mask` cannot be given when storing through a block pointer (use `boundary_check`)}}
    tl.store(p, 1.0, mask=M > 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{block shape [128] and value shape [64] mismatch}}
    tl.store(p, tl.zeros((64,), tl.float32))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{block element type fp32 and value element type fp16 mismatch}}
    tl.store(p, tl.zeros((BLOCK,), tl.float16))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.advance` expects a block pointer (from `tl.make_block_ptr`), got !tile.ptr<f32>}}
    x = tl.advance(X, (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`offsets` of `tl.advance` has 2 elements, but the block pointer has rank 1}}
    p = tl.advance(p, (0, 1))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    for i in range(N):
        # expected-error @+1 {{loop-carried `p` changes type from block pointer to tl.float32 [128] to block pointer to tl.float32 [64]}}
        p = tl.make_block_ptr(X, (M,), (1,), (0,), (64,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`p` is block pointer to tl.float32 [64] after the `if` branch but block pointer to tl.float32 [128] after the `else` branch}}
    if M > 0:
        p = tl.make_block_ptr(X, (M,), (1,), (0,), (64,), (0,))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(X, (M,), (1,), (0,), (BLOCK,), (0,))
    # expected-error @+1 {{`p` is block pointer to tl.float32 [128] after the `if` branch but i32 after the `else` branch}}
    if M > 0:
        p = tl.advance(p, (1,))
    else:
        p = M

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`padding_option` of `tl.load` needs a block pointer (from `tl.make_block_ptr`): the compiler does not know the bounds of a pointer tensor}}
    x = tl.load(X + tl.arange(0, BLOCK), padding_option="zero")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`boundary_check` of `tl.store` needs a block pointer (from `tl.make_block_ptr`): the compiler does not know the bounds of a pointer tensor}}
    tl.store(X, 1.0, boundary_check=(0,))
