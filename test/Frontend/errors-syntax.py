# Lexer and parser errors: each chunk is one diagnostic, checked with
# --verify-diagnostics (the expected-error comments below).
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = 1
    # expected-error @+1 {{unexpected indent}}
        y = 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    if N > 0:
        x = 1
    # expected-error @+1 {{unindent does not match any outer indentation level}}
      y = 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    if N > 0:
        x = 1
# expected-error @+1 {{inconsistent use of tabs and spaces in indentation}}
	y = 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unterminated string literal}}
    s = 'abc

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unterminated triple-quoted string literal}}
    s = """never
    closed

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{'(' was never closed}}
    x = tl.load(X + 1,
        mask=None

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{closing parenthesis ']' does not match opening parenthesis '('}}
    x = (N + 1]

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{invalid character '$' (U+0024)}}
    x = N $ 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{leading zeros in decimal integer literals are not permitted}}
    x = 0777

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{lambda expressions are not supported}}
    f = lambda v: v + 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{class definitions are not supported in Triton kernels}}
    class Config:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{comprehensions are not supported}}
    xs = {i * 2 for i in range(4)}

# -----
import triton
import triton.language as tl


@triton.jit
# expected-error @+1 {{`*args` parameters are not supported}}
def k(X, *args):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
# expected-error @+1 {{`**kwargs` parameters are not supported}}
def k(X, **kwargs):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`global` statements are not supported in Triton kernels}}
    global counter

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`try` statements are not supported}}
    try:
        pass
    finally:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`with` statements are not supported}}
    with open("f") as f:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        # expected-error @+1 {{`break` is not supported in Triton kernels (Triton loops have no early exit)}}
        break

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{dict displays are not supported in Triton kernels}}
    d = {"a": 1}

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{assignment expressions (`:=`) are not supported}}
    if (n := N + 1) > 0:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    if N > 0:
    # expected-error @+1 {{expected an indented block after 'if' statement on line 8}}
    x = 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{f-string fields in Triton kernels must be constexprs, but `N` is i32}}
    tl.device_print(f"x={N}")

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{positional argument follows keyword argument}}
    x = tl.load(X, mask=None, 0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{nested function definitions are not supported}}
    def inner(v):
        return v

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        pass
    # expected-error @+1 {{`else` on a `for` loop is not supported in Triton kernels}}
    else:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{invalid syntax at `N`}}
    x = 1 N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{keyword argument `mask` repeated}}
    x = tl.load(X, mask=None, mask=None)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unexpected character after line continuation character}}
    x = N \ 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`yield` is not supported}}
    yield N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = N
    # expected-error @+1 {{`del` statements are not supported}}
    del x

# -----
import triton
import triton.language as tl

# A relative import is looked up beside the file (there is no package here).
# expected-error @+1 {{cannot find module '.' (searched: }}
from . import helpers


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    helpers.f(X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`else` without a matching `if`}}
    else:
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{expected ':' after 'for' statement}}
    for i in range(N)
        pass

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{complex literals are not supported}}
    x = 2j
