"""`triton.language` (tl) on the host, served by Kiln's drop-in."""
from . import core
from .core import (block_type, const, constexpr, constexpr_function, dtype,
                   pointer_type, tensor,
                   tensor_descriptor, void, int1, int8, int16, int32, int64,
                   uint8, uint16, uint32, uint64, float8e5, float8e5b16,
                   float8e4nv, float8e4b8, float8e4b15, float16, bfloat16,
                   float32, float64, pi32_t)
from .core import constexpr_type, tuple_type  # noqa: F401
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
    "associative_scan cumsum cumprod sort bitonic_merge flip histogram gather swizzle2d "
    "broadcast broadcast_to expand_dims reshape view trans permute cat "
    "join split interleave ravel static_assert static_print static_range "
    "range device_assert device_print debug_barrier multiple_of "
    "max_contiguous max_constancy assume inline_asm_elementwise rand "
    "randint randn rand4x randint4x randn4x philox cast to_tensor "
    "map_elementwise topk add sub mul reduce_or philox_impl uint_to_uniform_float "
    "pair_uniform_to_normal squeeze unsqueeze"
).split()

_table, __getattr__ = core.builtin_namespace("triton.language", _BUILTINS)
globals().update(_table)


# Triton's signature spellings ("*fp16", "*ki32", "i64", "constexpr"), as
# host code (Triton's test helpers) turns them into dtypes.
_SIGNATURE_TYPES = {
    "fp8e4nv": float8e4nv, "fp8e4b8": float8e4b8, "fp8e5": float8e5,
    "fp8e5b16": float8e5b16, "fp8e4b15": float8e4b15, "fp16": float16,
    "bf16": bfloat16, "fp32": float32, "fp64": float64, "i1": int1,
    "i8": int8, "i16": int16, "i32": int32, "i64": int64, "u1": int1,
    "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64, "B": int1,
}


def str_to_ty(name, c=None):
    """The dtype a signature entry names (`tl.str_to_ty("*fp16", None)`)."""
    if isinstance(name, tuple):
        return tuple_type([str_to_ty(x, c) for x in name],
                          getattr(type(name), "_fields", None))
    if name.startswith("*"):
        name = name[1:]
        const = name.startswith("k")
        return pointer_type(str_to_ty(name[1:] if const else name, c),
                            const=const)
    if name.startswith("constexpr"):
        return constexpr_type(c)
    try:
        return _SIGNATURE_TYPES[name]
    except KeyError:
        raise KeyError("str_to_ty: unknown type %r" % (name,)) from None
