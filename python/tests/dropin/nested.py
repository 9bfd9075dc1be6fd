"""Kernels defined inside functions, as tests and scripts write them: Triton
compiles them with their capture scope (module globals, then the enclosing
function's variables), and kernels whose source is replaced in memory."""
import triton
import triton.language as tl

SCALE = 100.0  # shadowed by make_scaled's own SCALE


def make_scaled(scale, block):
    SCALE = scale  # noqa: F841  (read by the kernels below)
    OUT_TY = tl.float16

    @triton.jit
    def combine(a, b):
        return a * SCALE + b

    @triton.jit
    def scaled(x_ptr, out_ptr, n):
        offs = tl.program_id(0) * block + tl.arange(0, block)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(out_ptr + offs, combine(x, 1.0).to(OUT_TY), mask=m)

    return scaled


def make_halves(block):
    halves = [2, block // 2]  # a captured list: a shape

    @triton.jit
    def halves_sum(x_ptr, out_ptr):
        x = tl.load(x_ptr + tl.arange(0, block))
        tl.store(out_ptr + tl.arange(0, block // 2),
                 tl.sum(tl.reshape(x, halves), 0))

    return halves_sum


def make_broken():
    @triton.jit
    def broken(x_ptr):
        tl.store(x_ptr, tl.no_such_builtin(1))

    return broken


def make_capturing_an_object():
    scale = object()  # no compile-time value (a tensor or a plain function would not be either)

    @triton.jit
    def uses_object(x_ptr):
        tl.store(x_ptr, scale)

    return uses_object


@triton.jit
def template(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, GENERATE_HERE)  # noqa: F821


if __name__ == "__main__":
    @triton.jit
    def in_main(x_ptr):
        tl.store(x_ptr, 1.0)


@triton.jit
def widen(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(tl.float32))


if SCALE > 0:  # a def inside a module-level block
    @triton.jit
    def in_block(x_ptr):
        tl.store(x_ptr, SCALE * 2)
