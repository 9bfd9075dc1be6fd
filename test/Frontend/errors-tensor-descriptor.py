# Misuse of tensor descriptors, each with Triton 3.6's rule.
# RUN: ln-compile %s --kernel k --signature '*fp16,*i32,*i8,i32,i32' \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Expected 1 <= ndim <= 5 but got 6 dimensions}}
    d = tl.make_tensor_descriptor(H, [n, n, n, n, n, n], [s, s, s, s, s, 1], [8, 8, 8, 8, 8, 8])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Expected 2 strides but got 1}}
    d = tl.make_tensor_descriptor(H, [n, n], [1], [16, 16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Expected block_shape to have 2 dimensions but got 1}}
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes}}
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16, 4])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Tensor descriptor last dim must be 1 but got 2}}
    d = tl.make_tensor_descriptor(H, [n, n], [s, 2], [16, 16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Tensor descriptor last dim must be 1 but got i32 (the last stride must be the constant 1)}}
    d = tl.make_tensor_descriptor(H, [n, n], [s, s], [16, 16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{block_shape element 0 of `tl.make_tensor_descriptor` is 12, which is not a power of two}}
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [12, 16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{Padding option `nan` is not supported for integer blocks}}
    d = tl.make_tensor_descriptor(I, [n], [1], [16], padding_option="nan")

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{unknown padding option `inf` (expected "zero" or "nan")}}
    d = tl.make_tensor_descriptor(H, [n], [1], [16], padding_option="inf")

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    # expected-error @+1 {{`base` of `tl.make_tensor_descriptor` must be a scalar pointer, got i32}}
    d = tl.make_tensor_descriptor(n, [n], [1], [16])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16, 16])
    # expected-error @+1 {{expected 2 offsets, but got 1}}
    x = d.load([0])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16, 16])
    # expected-error @+1 {{`value` of `tl.store_tensor_descriptor` must have the block shape [16, 16], got tensor<16x32xf16>}}
    d.store([0, 0], tl.zeros([16, 32], tl.float16))

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16, 16])
    # expected-error @+1 {{`tl.load` cannot load through a tensor descriptor; use `desc.load(offsets)`}}
    x = tl.load(d)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [16, 16])
    # expected-error @+1 {{`tl.advance` expects a block pointer (from `tl.make_block_ptr`), got tensor descriptor of tl.float16 [16, 16]}}
    d = tl.advance(d, [16, 0])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    p = tl.make_block_ptr(H, [n], [1], [0], [16], [0])
    # expected-error @+1 {{`tl.load_tensor_descriptor` expects a tensor descriptor (from `tl.make_tensor_descriptor`), got block pointer to tl.float16 [16]}}
    x = tl.load_tensor_descriptor(p, [0])

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(B, [n], [1], [16])
    # expected-error @+1 {{`atomic_add` of a tensor descriptor does not support tl.int8}}
    d.atomic_add([0], tl.zeros([16], tl.int8))

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n], [1], [16])
    # expected-error @+1 {{`atomic_max` of a tl.float16 tensor descriptor (a TMA reduction) is not supported by Kiln yet}}
    d.atomic_max([0], tl.zeros([16], tl.float16))

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n, n], [s, 1], [1, 16])
    # expected-error @+1 {{`desc.gather` (a Blackwell TMA gather/scatter) is not supported}}
    x = d.gather(tl.arange(0, 8), 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, I, B, n, s):
    d = tl.make_tensor_descriptor(H, [n], [1], [16])
    for i in range(0, n):
        # expected-error @+1 {{loop-carried `d` changes type from tensor descriptor of tl.float16 [16] to tensor descriptor of tl.float16 [32]}}
        d = tl.make_tensor_descriptor(H, [n], [1], [32])
