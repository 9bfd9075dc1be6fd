"""Host-level `triton.language`: what host code touches (dtype objects,
tl.constexpr, tl.tensor for isinstance checks). Kernel bodies are compiled by
Kiln from their source, never run here; calling a builtin from Python raises
Triton's error."""


class dtype:
    SINT_TYPES = ("int8", "int16", "int32", "int64")
    UINT_TYPES = ("int1", "uint8", "uint16", "uint32", "uint64")
    FP_TYPES = ("fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16",
                "fp16", "bf16", "fp32", "fp64")
    STANDARD_FP_TYPES = ("fp16", "bf16", "fp32", "fp64")
    OTHER_TYPES = ("void",)
    _BITS = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
             "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
             "fp8e4b15": 8, "fp8e4nv": 8, "fp8e4b8": 8, "fp8e5": 8,
             "fp8e5b16": 8, "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64,
             "void": 0}
    _MANTISSA = {"fp8e4b15": 3, "fp8e4nv": 3, "fp8e4b8": 3, "fp8e5": 2,
                 "fp8e5b16": 2, "fp16": 10, "bf16": 7, "fp32": 23, "fp64": 52}
    _EXP_BIAS = {"fp8e4b15": 15, "fp8e4nv": 7, "fp8e4b8": 8, "fp8e5": 15,
                 "fp8e5b16": 16, "fp16": 15, "bf16": 127, "fp32": 127,
                 "fp64": 1023}

    def __init__(self, name):
        if name not in self._BITS:
            raise ValueError("unknown dtype %r" % (name,))
        self.name = name
        self.primitive_bitwidth = self._BITS[name]
        self.itemsize = self.primitive_bitwidth // 8
        if name in self._MANTISSA:
            self.fp_mantissa_width = self._MANTISSA[name]
            self.exponent_bias = self._EXP_BIAS[name]
        if name in self.SINT_TYPES or name in self.UINT_TYPES:
            self.int_bitwidth = self.primitive_bitwidth
            self.int_signedness = ("signed" if name in self.SINT_TYPES
                                   else "unsigned")

    def is_fp8(self):
        return self.name.startswith("fp8")

    def is_fp16(self):
        return self.name == "fp16"

    def is_bf16(self):
        return self.name == "bf16"

    def is_fp32(self):
        return self.name == "fp32"

    def is_fp64(self):
        return self.name == "fp64"

    def is_floating(self):
        return self.name in self.FP_TYPES

    def is_int(self):
        return self.name in self.SINT_TYPES or self.name in self.UINT_TYPES

    def is_int_signed(self):
        return self.name in self.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in self.UINT_TYPES

    def is_bool(self):
        return self.name == "int1"

    def is_void(self):
        return self.name == "void"

    def is_ptr(self):
        return False

    def is_block(self):
        return False

    def is_standard_floating(self):
        return self.name in self.STANDARD_FP_TYPES

    @property
    def scalar(self):
        return self

    def __eq__(self, other):
        return isinstance(other, dtype) and type(other) is type(self) and \
            other.name == self.name

    def __hash__(self):
        return hash((type(self).__name__, self.name))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "triton.language." + _REPR_NAMES.get(self.name, self.name)

    def __call__(self, *args, **kwargs):
        _outside_kernel(repr(self))

    def to_ir(self, builder):
        _outside_kernel("dtype.to_ir")


class const:
    """Annotation of a kernel parameter that points to constant data
    (`x_ptr: tl.const`): the compiler refuses stores through it."""


class pointer_type(dtype):
    def __init__(self, element_ty, address_space=1, const=False):
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = "pointer<%s>" % element_ty
        self.primitive_bitwidth = 64
        self.itemsize = 8

    def is_ptr(self):
        return True

    def __eq__(self, other):
        return isinstance(other, pointer_type) and \
            other.element_ty == self.element_ty and other.const == self.const

    def __hash__(self):
        return hash(("pointer", self.element_ty, self.const))

    def __repr__(self):
        return "pointer_type(%r)" % (self.element_ty,)


class block_type(dtype):
    def __init__(self, element_ty, shape):
        self.element_ty = element_ty
        self.shape = tuple(shape)
        self.name = "<%s, %s>" % (list(self.shape), element_ty)
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    def is_block(self):
        return True

    @property
    def scalar(self):
        return self.element_ty

    def __eq__(self, other):
        return isinstance(other, block_type) and \
            other.element_ty == self.element_ty and other.shape == self.shape

    def __hash__(self):
        return hash(("block", self.element_ty, self.shape))


_REPR_NAMES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
               "fp64": "float64", "fp8e4nv": "float8e4nv",
               "fp8e5": "float8e5", "fp8e4b15": "float8e4b15",
               "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16"}

void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)

# core.py's own names that libraries reach from host code or as defaults.
TRITON_MAX_TENSOR_NUMEL = 1048576


def get_int_dtype(bitwidth, signed):
    """The integer dtype of `bitwidth` bits (Triton's helper)."""
    bitwidth = getattr(bitwidth, "value", bitwidth)
    signed = getattr(signed, "value", signed)
    if bitwidth == 1:
        return int1
    table = {8: (int8, uint8), 16: (int16, uint16), 32: (int32, uint32),
             64: (int64, uint64)}
    if bitwidth not in table:
        raise ValueError("Unsupported bitwidth %r and signedness %r"
                         % (bitwidth, signed))
    return table[bitwidth][0 if signed else 1]


class constexpr:
    """A compile-time value. Module constants (`X: tl.constexpr =
    tl.constexpr(1)`) are read by Kiln's compiler from the source; on the
    host the object behaves like its value."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def _kiln_constexpr_spelling(self):
        """The compiler's text of the value: a tl.constexpr inside a tuple
        argument is a compile-time element there (Triton's tests pass
        `tuple(tl.constexpr(v) for v in BLOCK_SHAPE)`)."""
        from ..runtime.jit import _literal
        return _literal("tuple element", self)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __bool__(self):
        return bool(self.value)

    def __hash__(self):
        return hash(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.value, name)


class constexpr_type:
    """The type of a compile-time value (`x.type` of a constexpr in a
    kernel); on the host only for comparisons and isinstance checks."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and other.value == self.value

    def __hash__(self):
        return hash(("constexpr_type", self.value))

    def __repr__(self):
        return "constexpr_type[%r]" % (self.value,)


class tuple_type:
    """The type of a tuple of values (Triton's tl.tuple_type)."""

    def __init__(self, types, fields=None):
        self.types = list(types)
        self.fields = fields

    def __eq__(self, other):
        return isinstance(other, tuple_type) and other.types == self.types

    def __hash__(self):
        return hash(("tuple_type",) + tuple(map(hash, self.types)))

    def __repr__(self):
        return "(%s)" % ", ".join(map(repr, self.types))


def _binary(op, reflected=False):
    def method(self, other):
        other = other.value if isinstance(other, constexpr) else other
        return constexpr(op(other, self.value) if reflected
                         else op(self.value, other))
    return method


def _unary(op):
    def method(self):
        return constexpr(op(self.value))
    return method


def _install_operators():
    import operator as o
    for name, op in (("add", o.add), ("sub", o.sub), ("mul", o.mul),
                     ("truediv", o.truediv), ("floordiv", o.floordiv),
                     ("mod", o.mod), ("pow", o.pow), ("and", o.and_),
                     ("or", o.or_), ("xor", o.xor), ("lshift", o.lshift),
                     ("rshift", o.rshift)):
        setattr(constexpr, "__%s__" % name, _binary(op))
        setattr(constexpr, "__r%s__" % name, _binary(op, True))
    for name, op in (("eq", o.eq), ("ne", o.ne), ("lt", o.lt), ("le", o.le),
                     ("gt", o.gt), ("ge", o.ge)):
        setattr(constexpr, "__%s__" % name, _binary(op))
    for name, op in (("neg", o.neg), ("pos", o.pos), ("invert", o.invert),
                     ("abs", abs)):
        setattr(constexpr, "__%s__" % name, _unary(op))


_install_operators()
# The operators above replaced __hash__'s pairing with __eq__.
constexpr.__hash__ = lambda self: hash(self.value)


class tensor:
    """Only for isinstance checks and annotations on the host."""

    def __init__(self, *args, **kwargs):
        _outside_kernel("tl.tensor")


class tensor_descriptor:
    """Device-side descriptor type (annotations only on the host)."""


class _Builtin:
    """A tl builtin seen from the host: calling it is Triton's error."""
    def __init__(self, name, module):
        self.__name__ = self.__qualname__ = name
        self.__module__ = module

    def __call__(self, *args, **kwargs):
        _outside_kernel(self.__module__ + "." + self.__name__)

    def __repr__(self):
        return "<triton builtin %s.%s>" % (self.__module__, self.__name__)

    def _kiln_constexpr_spelling(self):
        """Passed as a value (a tuple element): `triton.language.maximum`."""
        return self.__module__ + "." + self.__name__


def _outside_kernel(what):
    raise ValueError(
        "Did you forget to add @triton.jit ? (`_semantic` argument must be "
        "provided outside of JIT functions.) [%s]" % what)


def builtin_namespace(module_name, names):
    """Stubs for `names` and a module __getattr__ that makes any other
    public name a stub too (libdevice has hundreds): Kiln's compiler, not
    this module, decides what exists."""
    table = {n: _Builtin(n, module_name) for n in names}

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(
                "module %r has no attribute %r" % (module_name, name))
        stub = table.get(name)
        if stub is None:
            stub = table[name] = _Builtin(name, module_name)
        return stub
    return table, __getattr__


CONSTEXPR_0 = constexpr(0)


class constexpr_function:
    """`@triton.constexpr_function`: a Python function kernels call with
    compile-time arguments. Kiln's compiler evaluates it from the source
    (its host-Python evaluator; docs/language.md); called from host code it
    is the plain function, its arguments' constexprs unwrapped."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "constexpr_function")
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__module__ = getattr(fn, "__module__", None)
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        args = [a.value if isinstance(a, constexpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, constexpr) else v
                  for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)

    def __get__(self, obj, objtype=None):  # a method of an aggregate class
        if obj is None:
            return self
        import functools
        return functools.partial(self.__call__, obj)
