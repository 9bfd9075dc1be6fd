import triton
import triton.language as tl


@triton.jit
def k(P, n):
    # expected-error @+1 {{a comprehension in a kernel is unrolled at compile time: its range needs constexpr integers, got i32}}
    a = [i for i in range(n)]

# -----
import triton
import triton.language as tl


@triton.jit
def k(P, n):
    # expected-error @+1 {{a comprehension's `if` in a kernel must be a compile-time condition, got i1}}
    a = [i for i in (1, 2) if n > i]

# -----
import triton
import triton.language as tl


@triton.jit
def k(P, n):
    # expected-error @+1 {{comprehensions are not supported in Triton kernels}}
    a = {i: i for i in (1, 2)}
