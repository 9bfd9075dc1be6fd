"""A scalar parameter annotated with a dtype (torchao's `stride: tl.int64`)."""
import triton
import triton.language as tl


@triton.jit
def offset_copy(x_ptr, stride: tl.int64, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + pid * stride + offs, tl.load(x_ptr + offs))
