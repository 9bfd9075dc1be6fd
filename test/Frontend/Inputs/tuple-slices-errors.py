# Misused tuple slices (tuple-slices.py runs this file).
import triton
import triton.language as tl


@triton.jit
def bad(X):
    t = (1, 2, 3)
    # expected-error @+1 {{tuple slice step cannot be zero}}
    u = t[::0]

# -----
import triton
import triton.language as tl


@triton.jit
def bad(X):
    t = (1, 2, 3)
    n = tl.load(X)
    # expected-error @+1 {{tuple slice stop must be a constexpr integer or None, got i32}}
    u = t[:n]
