"""A kernel Kiln cannot compile: `zz` is undefined (line 9, column 21)."""
import triton
import triton.language as tl


@triton.jit
def broken_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, zz)
