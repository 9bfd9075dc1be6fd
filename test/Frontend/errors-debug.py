# Misuses of the debugging builtins.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file --debug
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{an assertion condition must be boolean or an integer, got f32}}
    tl.device_assert(tl.load(X), "x")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`msg` of `tl.device_assert` must be a constexpr string, got i32}}
    tl.device_assert(N > 0, N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.static_print` got an unexpected keyword argument `level`}}
    tl.static_print(N, level=1)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`hex` of `tl.device_print` must be a constexpr bool, got i32}}
    tl.device_print("n", N, hex=N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{assertion failed: BLOCK too small}}
    assert BLOCK > 1024, "BLOCK too small"

# -----
import triton
import triton.language as tl


@triton.jit(debug=1)
# expected-error @-1 {{`debug` of @triton.jit must be True, False or None}}
def k(X, N, BLOCK: tl.constexpr):
    pass
