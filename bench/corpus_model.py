"""The vocabulary of the kernel corpus descriptions (bench/corpus/cases.py).

Pure Python: importable without torch or Triton (CI compiles every case with
ln-compile from these descriptions). Torch only reaches this code at run time,
as the `torch` module handed to `Ctx` by bench/corpus_run.py.
"""
import os
import types

CORPUS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

# Kiln/Triton signature names -> bytes per element.
DTYPE_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u32": 4,
               "fp8e4nv": 1, "fp16": 2, "bf16": 2, "fp32": 4, "fp64": 8}
TORCH_DTYPE = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
               "fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
               "fp64": "float64", "i1": "bool", "fp8e4nv": "float8_e4m3fn"}
FLOAT_DTYPES = ("fp16", "bf16", "fp32")

# Default (atol, rtol) by the dtype of the checked output: a little more than
# one unit in the last place for 16-bit types (exp/division approximations
# may flip the last bit), fp32 results against references computed in fp32.
DEFAULT_TOL = {"fp16": (1e-3, 4e-3), "bf16": (8e-3, 3e-2), "fp32": (1e-5, 1e-4),
               "fp64": (1e-9, 1e-9)}


def cdiv(a, b):
    return -(-a // b)


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def row_warps(block, esize=4):
    """Warps for a one-row-per-program tile of `block` elements of `esize`
    bytes: 64 bytes per thread, between 1 and 16 warps."""
    return max(1, min(16, block * esize // 2048))


class Ptr:
    """A pointer parameter bound to the tensor `name` of the case's inputs.
    `dtype` None means the case's dtype; `aligned`: the harness allocates it
    fresh from torch, so its address is 16-byte aligned (signature `:16`)."""
    kind = "ptr"

    def __init__(self, name, dtype=None, aligned=True):
        self.name, self.dtype, self.aligned = name, dtype, aligned


class Int:
    """An integer scalar whose value follows from the shape."""
    kind = "int"

    def __init__(self, name, value):
        self.name, self.value = name, value


class Float:
    """A float scalar (passed as fp32) whose value follows from the shape."""
    kind = "float"

    def __init__(self, name, value):
        self.name, self.value = name, value


class Const:
    """A `tl.constexpr` parameter, passed by keyword; value from the shape."""
    kind = "const"

    def __init__(self, name, value):
        self.name, self.value = name, value


def shape(label, **dims):
    """One problem size: `label` (small / large / odd) and named dimensions,
    read in the lambdas as attributes (s.M, s.N)."""
    return types.SimpleNamespace(label=label, **dims)


def shape_text(s):
    return ",".join(f"{k}={v}" for k, v in vars(s).items() if k != "label")


class Case:
    """One corpus kernel with its shapes, dtypes, launch and reference.

    name      unique id (defaults to the kernel name)
    file      kernel file under bench/corpus/
    kernel    the @triton.jit function
    covers    one line: what it exercises (docs/performance.md lists these)
    params    Ptr/Int/Float/Const, one per kernel parameter, in order
    shapes    list of shape(...) (the first is the --quick shape)
    dtypes    the case's data dtypes (signature names)
    grid      grid(s, sms) -> tuple; sms: the device's multiprocessor count
    num_warps int or num_warps(s, dtype)
    make      make(ctx, s) -> dict name -> tensor (inputs and outputs)
    outputs   dict output name -> "poison" (NaN / 0xFF before each run),
              "zero" (accumulated into) or "keep" (updated in place)
    ref       ref(ctx, s, t) -> dict output name -> expected tensor
    tol       dict output name -> (atol, rtol), overriding DEFAULT_TOL
    bytes     bytes(s, esize) -> bytes moved by one launch (for GB/s)
    """

    def __init__(self, file, kernel, covers, params, shapes, dtypes, grid, num_warps,
                 make, outputs, ref, bytes, tol=None, name=None):
        self.name = name or kernel
        self.file, self.kernel, self.covers = file, kernel, covers
        self.params, self.shapes, self.dtypes = params, shapes, tuple(dtypes)
        self.grid, self.num_warps = grid, num_warps
        self.make, self.outputs, self.ref = make, outputs, ref
        self.bytes, self.tol = bytes, tol or {}

    @property
    def path(self):
        return os.path.join(CORPUS_DIR, self.file)

    def warps(self, s, dtype):
        return self.num_warps(s, dtype) if callable(self.num_warps) else self.num_warps

    def pointer_dtype(self, p, dtype):
        return p.dtype or dtype


class Instance:
    """One (case, shape, dtype) point: what the harness runs and CI compiles."""

    def __init__(self, case, shape, dtype):
        self.case, self.shape, self.dtype = case, shape, dtype

    @property
    def id(self):
        return f"{self.case.name}/{self.shape.label}/{self.dtype}"

    @property
    def esize(self):
        return DTYPE_BYTES[self.dtype]

    def scalars(self):
        """Runtime scalar arguments by name (Int and Float params)."""
        return {p.name: p.value(self.shape) for p in self.case.params
                if p.kind in ("int", "float")}

    def constexprs(self):
        return {p.name: p.value(self.shape) for p in self.case.params if p.kind == "const"}

    def num_warps(self):
        return self.case.warps(self.shape, self.dtype)

    def grid(self, sms):
        g = tuple(self.case.grid(self.shape, sms))
        return g

    def bytes(self):
        return self.case.bytes(self.shape, self.esize)

    def signature(self):
        """Entries of the non-constexpr parameters as Kiln's runtime
        specializes them (docs/runtime.md): `*T[:16]`, `i32`/`i64[:16]`, `fp32`."""
        sig = []
        for p in self.case.params:
            if p.kind == "ptr":
                sig.append("*" + self.case.pointer_dtype(p, self.dtype)
                           + (":16" if p.aligned else ""))
            elif p.kind == "int":
                sig.append(int_signature(p.value(self.shape)))
            elif p.kind == "float":
                sig.append("fp32")
        return sig

    def compile_command(self, ln_compile):
        """argv for ln-compile that compiles this instance to PTX."""
        argv = [ln_compile, self.case.path, "--kernel", self.case.kernel,
                "--signature", ",".join(self.signature())]
        for k, v in self.constexprs().items():
            argv += ["-D", f"{k}={const_text(v)}"]
        argv += ["--num-warps", str(self.num_warps()), "--emit=ptx", "-o", os.devnull]
        return argv

    def tolerance(self, output, out_dtype):
        if output in self.case.tol:
            return self.case.tol[output]
        return DEFAULT_TOL.get(out_dtype, (0, 0))


def int_signature(v):
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"integer parameter value {v!r} is not an int")
    t = "i32" if -2**31 <= v < 2**31 else "i64"
    return t + (":16" if v % 16 == 0 else "")


def const_text(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    return str(v)


class Ctx:
    """What `make` and `ref` see: torch (handed in by the harness), the
    device and the case's dtype, plus allocation helpers."""

    def __init__(self, torch, device, dtype):
        self.torch, self.dev, self.dtype = torch, device, dtype
        self.dt = self.tdtype(dtype)

    def tdtype(self, name):
        return getattr(self.torch, TORCH_DTYPE[name])

    def _dt(self, dtype):
        return self.dt if dtype is None else self.tdtype(dtype)

    def randn(self, *shape, dtype=None, scale=1.0, shift=0.0):
        x = self.torch.randn(*shape, device=self.dev, dtype=self.torch.float32)
        return (x * scale + shift).to(self._dt(dtype))

    def rand(self, *shape, dtype=None, lo=0.0, hi=1.0):
        x = self.torch.rand(*shape, device=self.dev, dtype=self.torch.float32)
        return (lo + (hi - lo) * x).to(self._dt(dtype))

    def randint(self, lo, hi, *shape, dtype="i32"):
        return self.torch.randint(lo, hi, shape, device=self.dev, dtype=self._dt(dtype))

    def empty(self, *shape, dtype=None):
        return self.torch.empty(*shape, device=self.dev, dtype=self._dt(dtype))

    def zeros(self, *shape, dtype=None):
        return self.torch.zeros(*shape, device=self.dev, dtype=self._dt(dtype))

    def mat(self, M, N, stride, dtype=None, fill="randn", scale=1.0):
        """An M x N view with row stride `stride` >= N of a fresh allocation."""
        assert stride >= N
        if fill == "randn":
            base = self.randn(M, stride, dtype=dtype, scale=scale)
        elif fill == "int":
            base = self.randint(-100, 100, M, stride, dtype=dtype)
        else:
            base = self.empty(M, stride, dtype=dtype)
        return base[:, :N]
