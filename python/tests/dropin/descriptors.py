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


# Batches of rows through Triton's ragged TMA helpers (triton_kernels' MoE
# matmul reads its expert-grouped rows so): batch b is rows
# [starts[b], starts[b] + sizes[b]) of x and y.
from triton.tools.ragged_tma import load_ragged, store_ragged  # noqa: E402


@triton.jit
def ragged_double(x_desc, y_desc, starts, sizes, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(starts + b)
    size = tl.load(sizes + b)
    for m in range(0, size, BM):
        t = load_ragged(x_desc, start, size, [m, tl.program_id(1) * BN])
        store_ragged(y_desc, start, size, [m, tl.program_id(1) * BN], t * 2)
