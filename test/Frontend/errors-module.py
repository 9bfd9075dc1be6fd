# Module-level errors: host names read by kernels, kernel lookup, decorators,
# calls of functions that are not @triton.jit, recursion. Host code itself
# (imports, classes, statements) is skipped: only what a kernel reads counts.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import torch


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`torch` is the module `torch`, which kernels cannot use}}
    x = torch.ones

# -----
import triton
from numpy import float32


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`float32` is `float32` from module `numpy` (imported at}}
    x = float32

# -----
import triton
from triton.language import dott


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot import `dott` from `triton.language` (imported at}}
    dott(X)

# -----
import triton
from triton.language import dot_scaled


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.dot_scaled` is missing required argument `lhs_format`}}
    dot_scaled(X, X)

# -----
import triton
from triton.language import fp8e4nv


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`triton.language.fp8e4nv` is not supported (imported at}}
    fp8e4nv(X)

# -----
# expected-error @-1 {{kernel `k` not found in within split at}}
import triton
import triton.language as tl


@triton.jit
def a(X):
    pass


@triton.jit
def b(X):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
def helper(X):
    pass


# expected-error @+1 {{`k` is not a @triton.jit function}}
def k(X, Y, N, BLOCK):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{unsupported decorator `@classmethod`}}
@classmethod
@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


for i in range(3):
    pass


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`i` is assigned in a `for` loop at}}
    x = i

# -----
import triton
import triton.language as tl


PID = tl.program_id(0)


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`PID` is defined at}}
    x = PID
    # (the message ends: by `tl.program_id(0)`, which is not a compile-time constant)

# -----
import triton
import triton.language as tl


HAS_APEX = False
try:
    import apex
    HAS_APEX = True
except ModuleNotFoundError:
    pass


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`HAS_APEX` is assigned in a `try` statement at}}
    if HAS_APEX:
        pass

# -----
import triton
import triton.language as tl


def host(x):
    return x


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`host` is not a @triton.jit function; kernels can only call @triton.jit functions}}
    y = host(N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x):
    # expected-error @+1 {{inlining `f` exceeds the call depth limit of 64 (is it recursive?)}}
    return f(x)


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    y = f(N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x, y):
    return x + y


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`f` takes 2 arguments but 3 were given}}
    z = f(N, N, N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x, y):
    return x + y


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`f` is missing argument `y`}}
    z = f(N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x, y):
    return x + y


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`f` got an unexpected keyword argument `z`}}
    w = f(N, y=1, z=2)

# -----
import triton
import triton.language as tl


@triton.jit(noinline=True)
def f(x, B: tl.constexpr):
    return x + B


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`f` is marked noinline, but was called with non-constexpr argument `B` (i32)}}
    w = f(N, N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x):
    if x > 0:
        # expected-error @+1 {{`f` returns i32 on one path and f32 on another}}
        return x
    return 1.5


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    w = f(N)

# -----
import triton
import triton.language as tl


@triton.jit
def f(x):
    if x > 0:
        # expected-error @+1 {{`f` returns i32 on one path and None on another}}
        return x


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    w = f(N)

# -----
import os
import triton
import triton.language as tl


if os.environ.get("USE_X0"):
    X0 = 1


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`X0` is assigned in an `if` statement at}}
    x = X0
