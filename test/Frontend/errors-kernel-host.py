# Host Python inside a @triton.jit function: it parses, and the construct
# gets a precise error where the kernel reaches it.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`raise` statements are not supported in Triton kernels}}
    raise ValueError(N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`match` statements are not supported in Triton kernels}}
    match N:
        case 1:
            pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{set displays are not supported in Triton kernels}}
    s = {N, 1}

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{comprehensions are not supported in Triton kernels}}
    d = {k: N for k in range(3)}

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{Python builtin `sum` is not supported in kernels}}
    g = sum(i for i in range(3))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`*` unpacks tuples in Triton kernels, not !tile.ptr<f32>}}
    tl.store(*X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unpacking keyword arguments with `**` is not supported in Triton kernels}}
    tl.store(X, 1, **N)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{bytes literals are not supported in Triton kernels}}
    b = b'abc'

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{complex literals are not supported in Triton kernels}}
    c = 1 + 2j

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`type` statements are not supported in Triton kernels}}
    type T = int

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        # expected-error @+1 {{`continue` is not supported in Triton kernels (Triton loops have no early exit)}}
        continue

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    while N > 0:
        N -= 1
    # expected-error @+1 {{`else` on a `while` loop is not supported in Triton kernels}}
    else:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`yield` is not supported in Triton kernels}}
    y = yield from N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`await` is not supported in Triton kernels}}
    a = await N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{starred assignment targets are not supported in Triton kernels}}
    a, *b = N, N, N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{integer literal `99999999999999999999` is too large (Kiln's integers are below 2^64)}}
    x = N + 99999999999999999999

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{format specs in f-strings are not supported in Triton kernels}}
    tl.static_assert(BLOCK == 64, f"{BLOCK:>8}")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{static assertion failed: BLOCK is 128 and 'a'}}
    tl.static_assert(BLOCK == 64, f"BLOCK is {BLOCK!r} and {'a'!r}")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`...` is not supported}}
    x = ...

# -----
import triton
import triton.language as tl


@triton.jit
# expected-error @+1 {{positional-only parameters (`/`) are not supported in Triton kernels}}
def k(X, /, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
# expected-error @+1 {{keyword-only parameters are not supported in Triton kernels}}
def k(X, Y, N, *, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{`async def` is not supported in Triton kernels}}
@triton.jit
async def k(X, Y, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`nonlocal` statements are not supported in Triton kernels}}
    nonlocal N
