# Control-flow errors: loop-carried types, conditions, returns, range
# arguments, unrolling limits, assertions, constexpr rules.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=1024 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, BLOCK):
        # expected-error @+1 {{loop-carried `acc` changes type from tensor<1024xf32> to tensor<1024xf16>}}
        acc = tl.load(Y + i + offs)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    total = 0
    for i in range(N):
        # expected-error @+1 {{loop-carried `total` changes type from i32 to f32}}
        total += 0.5

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    n = 0
    while n < N:
        # expected-error @+1 {{loop-carried `n` changes type from i32 to i64}}
        n = n.to(tl.int64) + 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`if` condition must be a scalar, got tensor<1024xi1> (use tl.where for elementwise selection)}}
    if offs < N:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`while` condition must be a scalar, got tensor<1024xi1> (use tl.where for elementwise selection)}}
    while offs < N:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`while` condition is always true; without `break` the loop would never end}}
    while True:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        # expected-error @+1 {{`return` inside a loop is not supported}}
        return

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{a kernel cannot return a value}}
    return N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`x` is f32 after the `if` branch but i32 after the `else` branch}}
    if N > 0:
        x = 1.0
    else:
        x = 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`for` loops must iterate over `range(...)`, `tl.range(...)`, `tl.static_range(...)` or a tuple, not i32}}
    for i in N:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`range` arguments must be integer scalars, got constexpr float 2.5}}
    for i in range(2.5):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`range` step must not be zero}}
    for i in range(N, 0, 0):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`range` step must not be zero}}
    for i in range(0, N, 0):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`num_stages` must be an integer constant from 1 to 16, got 0}}
    for i in tl.range(0, N, num_stages=0):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`num_stages` must be an integer constant from 1 to 16, got i32}}
    for i in tl.range(0, N, num_stages=N):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`loop_unroll_factor` must be an integer constant from 1 to 64, got 0}}
    for i in tl.range(0, N, loop_unroll_factor=0):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`loop_unroll_factor` must be an integer constant from 1 to 64, got i32}}
    for i in tl.range(0, N, loop_unroll_factor=N):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.static_range` would unroll 100000 iterations (the limit is 4096)}}
    for i in tl.static_range(100000):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.static_range` arguments must be constexpr integers, got i32}}
    for i in tl.static_range(N):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{assertion failed: BLOCK too large}}
    assert BLOCK <= 512, "BLOCK too large"

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{an assertion condition must be boolean or an integer, got f32}}
    assert tl.load(X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # A runtime value stays one (as in Triton); the name is bound once.
    B: tl.constexpr = N
    # expected-error @+1 {{`B` is already defined; a tl.constexpr cannot be reassigned}}
    B: tl.constexpr = 8

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    dt = tl.float32
    for i in range(N):
        # expected-error @+1 {{`dt` holds dtype tl.float32 before the loop and cannot be reassigned inside it}}
        dt = tl.float16

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(N):
        # expected-error @+1 {{loop-carried `acc` becomes dtype tl.float32 inside the loop}}
        acc = tl.float32

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{the loop variable must be a single name}}
    for i, j in range(N):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`while` condition is `tl.load`}}
    while tl.load:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{the arms of the conditional expression have different types: i32 and f32}}
    y = N if N > 0 else 1.5

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot unpack i32 into 2 names}}
    a, b = N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`tl.load` got an unexpected keyword argument `pointer2`}}
    x = tl.load(pointer2=X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`range` expects 1 to 3 arguments, got 4}}
    for i in range(0, N, 1, 2):
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in tl.range(0, N, num_stages=2):
        # expected-error @+1 {{`tl.range` can only be the iterable of a `for` loop}}
        r = tl.range(0, 4)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in tl.static_range(4000):
        for j in tl.static_range(4000):
            # expected-error @+1 {{kernel too large: more than 200000 statements after inlining and unrolling}}
            x = i + j
