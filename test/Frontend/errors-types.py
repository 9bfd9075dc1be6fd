# Name and typing errors: undefined names, unknown or unsupported attributes,
# operand types and shapes, constant folding, indexing, unpacking.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp16,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{name `cols` is not defined}}
    x = tl.load(X + cols)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unknown attribute `tl.lod`}}
    x = tl.lod(X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.dot_scaled` is missing required argument `lhs_format`}}
    x = tl.dot_scaled(X, X)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`tl.float8e4b15` is not supported (Kiln's dtypes: int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, float8e4nv, float8e5)}}
    x = tl.zeros([BLOCK], dtype=tl.float8e4b15)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    if N > 0:
        y = 1
    # expected-error @+1 {{name `y` is not defined here: `y` is assigned in only one branch of the `if` on line 8}}
    z = y + 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        t = i * 2
    # expected-error @+1 {{name `t` is not defined here: `t` is only defined inside the `for` loop on line 8}}
    z = t

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    for i in range(N):
        pass
    # expected-error @+1 {{name `i` is not defined here: the loop variable `i` is not available after its `for` loop}}
    z = i

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    a = tl.arange(0, BLOCK)
    b = tl.arange(0, 64)
    # expected-error @+1 {{incompatible shapes [128] and [64] for `+`}}
    c = a + b

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{invalid operands of types !tile.ptr<f32> and i32 for `*`}}
    p = X * N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot add two pointers}}
    p = X + X

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{pointer offsets must be integers, got constexpr float 1.5}}
    p = X + 1.5

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{`//` is not supported on floating-point values (f32); use `/`}}
    y = x // 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{invalid operands of type f32 and i32 for `&`: it expects integer or boolean operands}}
    y = x & N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`**` is only supported on constexprs}}
    y = N ** 2

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{`@` expects tensors of numbers, got f32}}
    y = x @ x

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    u = N.to(tl.uint32)
    # expected-error @+1 {{Cannot use `//` with uint32 and int32 because they have different signedness; cast them to the same signedness}}
    y = u // N

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    b = N.to(tl.int8)
    # expected-error @+1 {{constant 1000 is out of range for int8}}
    y = b + 1000

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    u = N.to(tl.uint32)
    # expected-error @+1 {{cannot combine an unsigned value with the negative constant -1; cast one of them}}
    y = u + -1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{too many indices for a tensor of rank 1}}
    y = offs[:, :]

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{unsupported tensor index `0`: only `:` and `None` are supported}}
    y = offs[0]

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    t = (1, 2)
    # expected-error @+1 {{tuple index 2 out of range for a tuple of 2}}
    y = t[2]

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`N` (i32) is not subscriptable}}
    y = N[0]

# -----
import triton
import triton.language as tl


# A scalar takes `:` and `None` as Triton's tensors do (`pid[:, None]` is a
# 1-element tile), and nothing else.
@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    one = pid[:, None] + pid[None, :]
    tl.static_assert(one.shape == (1,))
    tl.static_assert(pid[None, None].shape == (1, 1))
    # expected-error @+1 {{`pid` (i32) is not subscriptable}}
    y = pid[:, 0]

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`N` is not callable (it is i32)}}
    y = N()

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot unpack 3 values into 2 names}}
    a, b = 1, 2, 3

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{assignment to `offs[0]` is not supported: tensors are immutable (use tl.where)}}
    offs[0] = 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{integer overflow in constant expression}}
    y = 2 ** 64

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{division by zero in constant expression}}
    y = BLOCK // 0

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{unknown attribute `foo` of a tensor (tensor<128xi32>)}}
    y = offs.foo

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # expected-error @+1 {{`item` needs a tensor of one element, got tensor<128xi32>}}
    y = offs.item()

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`element_ty` is only defined for pointer dtypes, not tl.int32}}
    d = N.dtype.element_ty

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{a pointer converts only to int64, int1 or another pointer type, not int32}}
    y = X.to(tl.int32)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{wrong type argument to unary minus (!tile.ptr<f32>)}}
    y = -X

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    x = tl.load(X)
    # expected-error @+1 {{`~` expects an integer or boolean value, got f32}}
    y = ~x

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`in` is not supported}}
    y = N in (1, 2)

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{unsupported operand types for `+`: dtype tl.float32 and constexpr int 1}}
    y = tl.float32 + 1

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot compare constexpr int 1 and string 'a' with `<`}}
    y = 1 < "a"

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{`...` is not supported}}
    y = ...

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr):
    # expected-error @+1 {{cannot convert string 's' with .to(); only tensors, runtime scalars and numbers have a dtype}}
    y = tl.cast("s", tl.float32)
