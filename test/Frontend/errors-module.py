# Module-level errors: imports, kernel lookup, decorators, module-level
# statements, calls of functions that are not @triton.jit, recursion.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
# expected-error @+1 {{import of module `torch` is not supported: kernel files may import only `triton` and `triton.language`}}
import torch


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
# expected-error @+1 {{import from module `numpy` is not supported}}
from numpy import float32


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
# expected-error @+1 {{cannot import `dott` from `triton.language`}}
from triton.language import dott

# -----
import triton
# expected-error @+1 {{`triton.language.dot` is not supported}}
from triton.language import dot

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


# expected-error @+1 {{unsupported decorator `@staticmethod`}}
@staticmethod
@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{module-level `for` loops are not supported}}
for i in range(3):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{module-level value `tl.program_id(0)` must be a compile-time constant}}
PID = tl.program_id(0)

# -----
import triton
import triton.language as tl


# expected-error @+1 {{module-level expression statements are not supported}}
print('hello')

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


@triton.jit
def f(x, B: tl.constexpr):
    return x + B


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{argument `B` of `f` is tl.constexpr but got i32}}
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
import triton
import triton.language as tl


# expected-error @+1 {{module-level `if` statements are not supported (except `if __name__ == "__main__":`)}}
if True:
    pass
