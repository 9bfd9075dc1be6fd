# Kernels compiled ahead of time for AOTRuntimeTests (kiln_add_kernel in
# CMakeLists.txt gives their signatures).
import triton
import triton.language as tl


@triton.jit
def axpy(X, Y, Out, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    y = tl.load(Y + offs, mask=mask)
    tl.store(Out + offs, alpha * x + y, mask=mask)


# `new` is a C++ keyword: the launch function's parameter becomes `new_`.
@triton.jit
def fill(Out, new, count, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Out + offs, tl.zeros([BLOCK], dtype=tl.float16) + new, mask=offs < count)
