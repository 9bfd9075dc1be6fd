"""A kernel taking host tensor descriptors (test_dropin_descriptors.py):
plain Triton code, as tutorials and libraries write it for Hopper."""
import triton
import triton.language as tl


@triton.jit
def scale_desc(x_desc, y_desc, n, BM: tl.constexpr):
    m = tl.program_id(0) * BM
    y_desc.store([m, 0], x_desc.load([m, 0]) * 2)
