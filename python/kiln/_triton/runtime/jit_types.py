"""What `triton.runtime.jit` offers besides JITFunction: Triton's dtype
spellings, the specialization a `repr=` callback reads, TensorWrapper and
reinterpret. Split from jit.py; jit.py re-exports them."""


# Triton's signature spelling of each dtype name (`triton.runtime.jit.
# type_canonicalisation_dict`, read by host helpers such as Triton's own test
# utilities): bools are "u1", floats "fp16" / "bf16" / ..., fp8 by format.
type_canonicalisation_dict = dict(
    [(n, "u1") for n in ("bool", "int1", "uint1", "i1")]
    + [(n, "i%d" % b) for b in (8, 16, 32, 64) for n in ("int%d" % b,)]
    + [("int", "i32")]
    + [("uint%d" % b, "u%d" % b) for b in (8, 16, 32, 64)]
    + [("half", "fp16"), ("float16", "fp16"), ("bfloat16", "bf16"),
       ("float", "fp32"), ("float32", "fp32"), ("double", "fp64"),
       ("float64", "fp64"), ("void", "void")]
    + [(n, "fp8e4nv") for n in ("float8e4nv", "float8_e4m3fn")]
    + [(n, "fp8e5") for n in ("float8e5", "float8_e5m2")]
    + [("float8e4b15", "fp8e4b15")]
    + [(n, "fp8e4b8") for n in ("float8e4b8", "float8_e4m3fnuz")]
    + [(n, "fp8e5b16") for n in ("float8e5b16", "float8_e5m2fnuz")])


class TensorWrapper:
    """A tensor seen as another element type (`triton.reinterpret`): kernels
    specialize on `dtype` (a tl dtype, e.g. tl.float8e5 over a torch uint8
    tensor); the memory is the base tensor's."""

    def __init__(self, base, dtype):
        self.base = base
        self.dtype = dtype
        self.data = getattr(base, "data", None)
        self.device = base.device
        self.shape = getattr(base, "shape", None)

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def numel(self):
        return self.base.numel()

    def dim(self):
        return self.base.dim()

    def element_size(self):
        return max(1, self.dtype.primitive_bitwidth // 8)

    def cpu(self):
        return TensorWrapper(self.base.cpu(), self.dtype)

    def to(self, device):
        return TensorWrapper(self.base.to(device), self.dtype)

    def clone(self):
        return TensorWrapper(self.base.clone(), self.dtype)

    def copy_(self, other):
        self.base.copy_(other.base if isinstance(other, TensorWrapper)
                        else other)
        return self

    def new_empty(self, sizes):
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

    def __str__(self):
        return "TensorWrapper[%s](%s)" % (self.dtype, self.base)


def reinterpret(tensor, dtype):
    """Triton's triton.reinterpret: `tensor`'s memory as elements of `dtype`
    (a tl dtype); reinterpreting a wrapper as its base's own dtype gives the
    base back."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError("Cannot reinterpret a %s." % type(tensor).__name__)


class Specialization:
    """What Triton's `repr` callback reads of a specialization (its
    ASTSource): `signature` maps each parameter to Triton's type spelling
    ("i32", "u64", "*fp16", "constexpr", ...) and `constants` the
    constexprs, None arguments and integers specialized to 1 to their
    values."""

    def __init__(self, jit_fn, values):
        self.fn = jit_fn
        self.name = jit_fn.__name__
        self.signature, self.constants = {}, {}
        for p, v in zip(jit_fn.params, values):
            ty = _signature_type(v)
            if p.is_constexpr or v is None or (
                    ty in ("i32",) and v == 1 and not p.do_not_specialize):
                self.constants[p.name] = v
                ty = "constexpr"
            self.signature[p.name] = ty


def _signature_type(v):
    if v is None:
        return "constexpr"
    if isinstance(v, bool):
        return "i1"
    if isinstance(v, int):
        if -2**31 <= v < 2**31:
            return "i32"
        return "i64" if -2**63 <= v < 2**63 else "u64"
    if isinstance(v, float):
        return "fp32"
    dtype = getattr(v, "dtype", None)
    if dtype is not None:
        name = str(dtype).split(".")[-1]
        return "*" + type_canonicalisation_dict.get(name, name)
    return type(v).__name__
