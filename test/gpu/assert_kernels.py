# Kernels for device_assert_check.py (device assertions under Triton 3.6 and
# Kiln). No host code. X *i32, Out *i32, N i32, -D BLOCK; grid (1,).
#   assert_positive: Out = X * 2 after tl.device_assert(x > 0, ...) on the
#       lanes < N; fires when some X[i] <= 0 (debug builds only).
#   assert_stmt: the same with a runtime `assert` statement.
#   assert_jit_debug: @triton.jit(debug=True): the assertion is compiled in
#       without any environment variable.
# RUN: ln-compile %s --kernel assert_positive --signature '*i32,*i32,i32' -D BLOCK=128 --debug --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel assert_positive --signature '*i32,*i32,i32' -D BLOCK=128 --emit=ptx | FileCheck %s --check-prefix=NOASSERT
# RUN: ln-compile %s --kernel assert_jit_debug --signature '*i32,*i32,i32' -D BLOCK=128 --emit=ptx | FileCheck %s --check-prefix=PTX
# PTX: .extern .func __assertfail
# PTX: call.uni __assertfail
# NOASSERT-NOT: __assertfail
import triton
import triton.language as tl


@triton.jit
def assert_positive(X, Out, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1)
    tl.device_assert(x > 0, "x must be positive", mask=mask)
    tl.store(Out + offs, x * 2, mask=mask)


@triton.jit
def assert_stmt(X, Out, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1)
    assert tl.min(x, axis=0) > 0, "min(x) must be positive"
    tl.store(Out + offs, x * 2, mask=mask)


@triton.jit(debug=True)
def assert_jit_debug(X, Out, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1)
    tl.device_assert(x > 0, "x must be positive (jit debug)", mask=mask)
    tl.store(Out + offs, x * 2, mask=mask)
