"""What a launch argument becomes: Kiln's dtype names for tensor dtypes, and
the described entries of Kernel._describe (a specialization code, a pack
format, the value and the byte size) turned into kiln_args and packed
values: plain arguments, host tensor descriptors (a header and its shapes
and strides) and tuples (a header and their elements, nested)."""
import ctypes

from . import _lib
from .errors import LaunchError

# Element types by the name a tensor's dtype prints as (torch.float16 ->
# "float16"), numpy-style names, and Triton's short names.
_DTYPE_NAMES = {
    "bool": "i1", "int1": "i1", "int8": "i8", "int16": "i16", "short": "i16",
    "int32": "i32", "int": "i32", "int64": "i64", "long": "i64",
    "uint32": "u32", "uint8": "u8", "uint16": "u16", "uint64": "u64",
    "float16": "fp16", "half": "fp16",
    "bfloat16": "bf16", "float32": "fp32", "float": "fp32",
    "float64": "fp64", "double": "fp64",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
}
_DTYPE_NAMES.update({k: k for k in _lib.DTYPES})
# Only what this libkiln's compiler supports (u8/u16/u64 came later).
_DTYPE_NAMES = {k: v for k, v in _DTYPE_NAMES.items() if v in _lib.SUPPORTED}
# __cuda_array_interface__ typestrs (byte order ignored).
_TYPESTRS = {"b1": "i1", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64",
             "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64",
             "f2": "fp16", "f4": "fp32", "f8": "fp64"}
_TYPESTRS = {k: v for k, v in _TYPESTRS.items() if v in _lib.SUPPORTED}
_ELEMENT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u32": 4,
                  "u8": 1, "u16": 2, "u64": 8, "fp16": 2, "bf16": 2,
                  "fp32": 4, "fp64": 8, "fp8e4nv": 1, "fp8e5": 1}

_dtype_cache = {}


def _kiln_dtype(dtype):
    """Kiln's dtype name for a tensor dtype object (cached per object)."""
    try:
        return _dtype_cache[dtype]
    except (KeyError, TypeError):
        pass
    text = str(dtype)
    if text.startswith("torch."):
        text = text[6:]
    name = _DTYPE_NAMES.get(text)
    try:
        _dtype_cache[dtype] = name
    except TypeError:
        pass
    return name


def _is_descriptor(a):
    """A host tensor descriptor (triton.tools.tensor_descriptor's)."""
    return hasattr(a, "block_shape") and hasattr(a, "base")


def _descriptor_bits(block, nan, div16=()):
    """kiln_tensordesc_bits: the block shape, padding and which shape
    entries are divisible by 16, packed."""
    bits = len(block) | (8 if nan else 0)
    for d, divisible in enumerate(div16):
        if divisible:
            bits |= 1 << (29 + d)
    for d, b in enumerate(block):
        bits |= (int(b).bit_length() - 1) << (4 + 5 * d)
    return bits


def _describe_descriptor(where, a):
    """A descriptor's described entry: code ("td", dtype name, block, nan),
    the pack format of its header and parts, and (base, bits, parts)."""
    block = tuple(int(b) for b in a.block_shape)
    shape, strides = list(a.shape), list(a.strides)
    rank = len(block)
    if not (1 <= rank <= 5) or len(shape) != rank or len(strides) != rank:
        raise LaunchError("%s: tensor descriptor shape, strides and "
                          "block_shape must have one rank in 1..5 (got %d, "
                          "%d, %d)" % (where, len(shape), len(strides), rank))
    if any(b <= 0 or b & (b - 1) or b > 1 << 20 for b in block):
        raise LaunchError("%s: tensor descriptor block_shape %r is not made "
                          "of powers of two" % (where, list(block)))
    if int(strides[-1]) != 1:
        raise LaunchError("%s: tensor descriptor's last stride must be 1, "
                          "got %d" % (where, strides[-1]))
    name = _kiln_dtype(a.base.dtype)
    if name is None:
        raise LaunchError("%s: tensor descriptor dtype %s is not supported" %
                          (where, a.base.dtype))
    nan = getattr(a, "padding", "zero") == "nan"
    div16 = tuple(int(s) % 16 == 0 for s in shape)
    parts = [int(s) for s in shape] + [int(s) for s in strides[:-1]]
    fmt = "QQ" + "qQ" * (len(parts) - 1) + "q"
    return (("td", name, block, nan, div16), fmt,
            (a.base.data_ptr(), _descriptor_bits(block, nan, div16), parts),
            0)


# What the hit path needs of a descriptor whose block, padding, dtype, shape
# and strides it has seen: (code, (bits, part, 0, part, 0, ...)). Shapes
# change with the workload, so the table is emptied when it grows.
_descriptor_memo = {}
_DESCRIPTOR_MEMO_LIMIT = 4096


def _descriptor_key_values(where, a):
    """A descriptor's specialization code and the packed values after its
    base; validated and computed once per distinct (dtype, block, padding,
    shape, strides)."""
    memo_key = None
    try:
        memo_key = (a.base.dtype, tuple(a.block_shape),
                    getattr(a, "padding", "zero"), tuple(a.shape),
                    tuple(a.strides))
        return _descriptor_memo[memo_key]
    except (KeyError, TypeError):
        pass
    code, _, (_, bits, parts), _ = _describe_descriptor(where, a)
    rest = [bits]
    for part in parts:
        rest += (part, 0)
    found = code, tuple(rest)
    # Only plain ints are memoized: a tensor element hashes by identity.
    if memo_key is not None and all(
            type(v) is int for v in memo_key[1] + memo_key[3] + memo_key[4]):
        if len(_descriptor_memo) >= _DESCRIPTOR_MEMO_LIMIT:
            _descriptor_memo.clear()
        try:
            _descriptor_memo[memo_key] = found
        except TypeError:  # an unhashable dtype: described every launch
            pass
    return found


def _device_index(a):
    """CUDA device ordinal of a tensor-like, -1 on the host."""
    if _is_descriptor(a):
        a = a.base
    get = getattr(a, "get_device", None)
    if get is not None:
        return get()
    dev = getattr(a, "device", None)
    if dev is None:
        return 0  # __cuda_array_interface__ objects: the current device.
    if isinstance(dev, int):
        return dev
    kind = getattr(dev, "type", None)
    if kind is None:
        text = str(dev)
        kind, _, index = text.partition(":")
        return (int(index) if index else 0) if kind == "cuda" else -1
    if kind != "cuda":
        return -1
    index = getattr(dev, "index", None)
    return 0 if index is None else index


def _first_device(args):
    """The device of the first tensor-like among `args` (looking into
    tuples; a host one counts as 0), None when there is none."""
    for a in args:
        t = type(a)
        if t is int or t is float or t is bool or a is None or \
                hasattr(t, "_kiln_constexpr_spelling"):
            continue
        if isinstance(a, tuple):
            d = _first_device(a)
            if d is None:
                continue
            return d
        d = _device_index(a)
        return d if d >= 0 else 0
    return None


_C_STRINGS = {}


def _c_string_address(text):
    """The address of a NUL-terminated copy of `text` that lives as long as
    the process (a namedtuple header's field names, a constexpr argument's
    spelling: kiln_args point at them)."""
    buf = _C_STRINGS.get(text)
    if buf is None:
        buf = _C_STRINGS[text] = ctypes.create_string_buffer(text.encode())
    return ctypes.addressof(buf)


def _arg_count(d):
    """kiln_args of one described entry (Kernel._describe)."""
    code = d[0]
    if type(code) is tuple:
        if code[0] == "td":  # header, shapes, strides but the last
            return 1 + len(d[2][2])
        return 1 + sum(_arg_count(e) for e in d[2])  # a tuple
    return 1


def _fill_prototype(protos, at, d):
    """Fills the kiln_args of described entry `d` from protos[at]; returns
    the index after them."""
    code, _, value, size = d
    p = protos[at]
    if type(code) is tuple:
        if code[0] == "td":  # a tensor descriptor
            p.kind, p.dtype = _lib.ARG_TENSORDESC, _lib.DTYPES[code[1]]
            p.value.ptr, p.byte_size = value[0], value[1]
            for k, part in enumerate(value[2]):
                protos[at + 1 + k].kind = _lib.ARG_INT_NOSPEC
                protos[at + 1 + k].value.i = part
            return at + 1 + len(value[2])
        p.kind, p.value.i = _lib.ARG_TUPLE, len(value)
        if code[2]:  # a namedtuple's field names, kept alive here
            p.byte_size = _c_string_address(code[2])
        at += 1
        for e in value:
            at = _fill_prototype(protos, at, e)
        return at
    if code == "b":
        p.kind, p.value.i = _lib.ARG_BOOL, value
    elif code in ("i", "l"):
        p.kind = _lib.ARG_INT32 if code == "i" else _lib.ARG_INT64
        p.value.i = value
    elif code == "u":  # 2^63 and above: a u64
        p.kind, p.value.u = _lib.ARG_UINT, value
    elif code == "f":
        p.kind, p.value.f = _lib.ARG_FLOAT32, value
    elif code == "n":
        p.kind = _lib.ARG_NONE
    elif type(code) is str and code.startswith("cx:"):  # in _C_STRINGS
        p.kind = _lib.ARG_CONSTEXPR
        p.value.ptr = _c_string_address(code[3:])
    else:
        p.kind = _lib.ARG_POINTER
        name = (code[4:] if isinstance(code, str) and
                code.startswith("cai:") else _kiln_dtype(code))
        p.dtype = _lib.DTYPES[name]
        p.value.ptr = value
        p.byte_size = size
    return at + 1


def _append_values(values, d):
    """The packed records' values of described entry `d`, appended."""
    code, _, value, size = d
    if type(code) is tuple:
        if code[0] == "td":  # base, bits, then (part, 0) per part
            values += (value[0], value[1])
            for part in value[2]:
                values += (part, 0)
            return
        values += (len(value), 0)  # a tuple: its header, then its elements
        for e in value:
            _append_values(values, e)
        return
    values += (value, size)
