"""A kernel taking host tensor descriptors (test_dropin_descriptors.py):
plain Triton code, as tutorials and libraries write it for Hopper."""
import triton
import triton.language as tl


@triton.jit
def scale_desc(x_desc, y_desc, n, BM: tl.constexpr):
    m = tl.program_id(0) * BM
    y_desc.store([m, 0], x_desc.load([m, 0]) * 2)


# A host descriptor beside a plain pointer (Triton's
# test_host_tensor_descriptor_load): with unsigned elements the pointer keeps
# its signedness through the compile.
@triton.jit
def copy_block(out_ptr, desc, M_BLOCK: tl.constexpr, N_BLOCK: tl.constexpr):
    block = desc.load([M_BLOCK, 2 * N_BLOCK])
    idx = tl.arange(0, M_BLOCK)[:, None] * N_BLOCK + tl.arange(0, N_BLOCK)[None, :]
    tl.store(out_ptr + idx, block)
