# Misuse of tl.dot and `@`, each with Triton 3.6's rule.
# RUN: ln-compile %s --kernel k --signature '*fp16,*fp32,*i8,*u8,*i32' \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    h = tl.load(H + r[:, None] * 16 + r[None, :])
    f = tl.load(F + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{both operands of `tl.dot` must have the same dtype, got fp16 and fp32}}
    c = tl.dot(h, f)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    h = tl.load(H + r)
    # expected-error @+1 {{both operands of `tl.dot` must be 2-D or both 3-D, got [16] and [16]}}
    c = tl.dot(h, h)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    s = tl.arange(0, 32)
    a = tl.load(H + r[:, None] * 16 + r[None, :])
    b = tl.load(H + s[:, None] * 16 + r[None, :])
    # expected-error @+1 {{operands of `tl.dot` with shapes [16, 16] and [32, 16] are not compatible: the last dimension of the first (16) must equal the second-to-last of the second (32)}}
    c = tl.dot(a, b)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    e = tl.arange(0, 8)
    a = tl.load(H + r[:, None] * 8 + e[None, :])
    b = tl.load(H + e[:, None] * 16 + r[None, :])
    # M and N may be below 16 (padded, as Triton 3.6 does), K may not.
    # expected-error @+1 {{operands of `tl.dot` must have K >= 16, got M = 16, N = 16, K = 8}}
    c = tl.dot(a, b)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(I + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{operands of `tl.dot` must have K >= 32, got M = 16, N = 16, K = 16}}
    c = tl.dot(a, a)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 32)
    a = tl.load(U + r[:, None] * 32 + r[None, :])
    # expected-error @+1 {{`tl.dot` supports only int8 integer operands, got uint8}}
    c = tl.dot(a, a)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(O + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{`tl.dot` does not support first operands of dtype int32 (expected int8, float16, bfloat16, float32, float64 or fp8)}}
    c = tl.dot(a, a)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(F + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{only one of `input_precision` and `allow_tf32` of `tl.dot` can be specified}}
    c = tl.dot(a, a, input_precision="ieee", allow_tf32=True)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(F + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{`input_precision` of `tl.dot` must be one of 'tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6', got 'bf16x9'}}
    c = tl.dot(a, a, input_precision="bf16x9")

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(H + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{out_dtype=bfloat16 of `tl.dot` is unsupported: use out_dtype=float32 or float16 and cast with `.to(tl.bfloat16)`}}
    c = tl.dot(a, a, out_dtype=tl.bfloat16)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(H + r[:, None] * 16 + r[None, :])
    acc = tl.zeros((16, 32), dtype=tl.float32)
    # expected-error @+1 {{`acc` of `tl.dot` must be a tensor of shape [16, 16] and dtype fp32, got tensor<16x32xf32>}}
    c = tl.dot(a, a, acc)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 32)
    a = tl.load(I + r[:, None] * 32 + r[None, :])
    acc = tl.zeros((32, 32), dtype=tl.int32)
    # expected-error @+1 {{`acc` of `tl.dot` must be a tensor of shape [32, 32] and dtype int32 (pass out_dtype=int32), got tensor<32x32xi32>}}
    c = tl.dot(a, a, acc)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(H + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{`tl.dot` expects tensors of numbers, got constexpr float 2.0}}
    c = tl.dot(a, 2.0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(H + (r[:, None] * 16 + r[None, :])[None, :, :])
    b = tl.load(H + (r[:, None] * 16 + r[None, :])[None, :, :] + tl.arange(0, 2)[:, None, None])
    # expected-error @+1 {{operands of `tl.dot` with shapes [1, 16, 16] and [2, 16, 16] are not compatible: the batch sizes differ (1 and 2)}}
    c = tl.dot(a, b)

# -----
import triton
import triton.language as tl


@triton.jit
def k(H, F, I, U, O):
    r = tl.arange(0, 16)
    a = tl.load(F + r[:, None] * 16 + r[None, :])
    i = tl.load(O + r[:, None] * 16 + r[None, :])
    # expected-error @+1 {{`@` does not support first operands of dtype int32 (expected int8, float16, bfloat16, float32, float64 or fp8)}}
    c = i @ a
