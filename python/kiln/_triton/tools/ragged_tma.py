"""`triton.tools.ragged_tma` under Kiln's drop-in: descriptors over a tensor
split into batches of uneven length along one dimension (MoE rows grouped by
expert). `create_ragged_descriptor` builds the host descriptor; kernels call
`load_ragged`, `store_ragged` and `to_ragged_indices`, which Kiln's compiler
implements (lib/Frontend/Builtins/RaggedTma.cpp explains the addressing)."""
from .tensor_descriptor import TensorDescriptor
from ..language import core as _core

__kiln__ = True

# The ragged dimension's size in the descriptor: a batch coordinate is
# 2**30 - batch_size + row, in bounds exactly while row < batch_size.
_RAGGED_ROWS = 1 << 30
# The two leading dimensions only need to hold their coordinates (2**30 and
# batch_offset + batch_size); descriptor shapes are int32.
_LEADING_SIZE = 0x7FFF0000


def create_ragged_descriptor(T, block_shape, ragged_dim=0):
    """A descriptor of T (2-D or 3-D) whose loads and stores through
    load_ragged / store_ragged address rows [batch_offset, batch_offset +
    batch_size) of dimension `ragged_dim`, rows past the batch reading zeros
    and not written."""
    shape = list(T.shape)
    block = list(block_shape)
    rank = len(shape)
    if ragged_dim < 0:
        ragged_dim += rank
    if not 0 <= ragged_dim < rank - 1:
        raise ValueError("create_ragged_descriptor: ragged_dim %d is not a "
                         "dimension before the last of a rank-%d tensor"
                         % (ragged_dim, rank))
    if not 2 <= rank <= 3:
        raise ValueError("create_ragged_descriptor: T must have 2 or 3 "
                         "dimensions, got %d" % rank)
    if len(block) != rank:
        raise ValueError("create_ragged_descriptor: block_shape %r must have "
                         "T's rank %d" % (block, rank))
    if shape[ragged_dim] > _RAGGED_ROWS:
        raise ValueError("create_ragged_descriptor: %d rows along the ragged "
                         "dimension, at most 2**30" % shape[ragged_dim])
    row_stride = T.stride(ragged_dim)
    shape[ragged_dim] = _RAGGED_ROWS
    # Coordinate 2**30 along a stride of 2**34 - row_stride lands at
    # -2**30 * row_stride (addresses are 64-bit and wrap), which the batch
    # coordinates (offset + size, then 2**30 - size + row) bring back to row
    # offset + row.
    strides = [2**34 - row_stride, row_stride] + [T.stride(d) for d in range(rank)]
    return TensorDescriptor(T, [_LEADING_SIZE, _LEADING_SIZE] + shape, strides,
                            [1, 1] + block)


# Device functions: names host code can import; the compiler knows what
# they do (calling them from Python is an error, as for any tl builtin).
to_ragged_indices = _core._Builtin("to_ragged_indices", "triton.tools.ragged_tma")
load_ragged = _core._Builtin("load_ragged", "triton.tools.ragged_tma")
store_ragged = _core._Builtin("store_ragged", "triton.tools.ragged_tma")
