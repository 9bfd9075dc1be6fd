"""`triton.language` (tl) on the host, served by Kiln's drop-in."""
from . import core
from .core import (block_type, constexpr, constexpr_function, dtype,
                   pointer_type, tensor,
                   tensor_descriptor, void, int1, int8, int16, int32, int64,
                   uint8, uint16, uint32, uint64, float8e5, float8e5b16,
                   float8e4nv, float8e4b8, float8e4b15, float16, bfloat16,
                   float32, float64, pi32_t)
from . import math, extra, standard  # noqa: F401  (tl.math, tl.extra)

__kiln__ = True

_BUILTINS = (
    "program_id num_programs arange zeros zeros_like full full_like load "
    "store make_block_ptr advance make_tensor_descriptor "
    "load_tensor_descriptor store_tensor_descriptor dot dot_scaled "
    "atomic_add atomic_and atomic_cas atomic_max atomic_min atomic_or "
    "atomic_xchg atomic_xor where maximum minimum clamp abs exp exp2 log "
    "log2 cos sin sqrt sqrt_rn rsqrt fma fdiv div_rn floor ceil erf "
    "sigmoid softmax umulhi cdiv max min sum xor_sum argmax argmin reduce "
    "associative_scan cumsum cumprod sort flip histogram gather swizzle2d "
    "broadcast broadcast_to expand_dims reshape view trans permute cat "
    "join split interleave ravel static_assert static_print static_range "
    "range device_assert device_print debug_barrier multiple_of "
    "max_contiguous max_constancy assume inline_asm_elementwise rand "
    "randint randn rand4x randint4x randn4x philox cast to_tensor "
    "map_elementwise topk add sub mul reduce_or philox_impl uint_to_uniform_float "
    "pair_uniform_to_normal"
).split()

_table, __getattr__ = core.builtin_namespace("triton.language", _BUILTINS)
globals().update(_table)
