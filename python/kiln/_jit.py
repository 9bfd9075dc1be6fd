"""Kernels from Triton-language files, launched with Triton's convention.

    add = kiln.jit("add.py").add_kernel
    add[grid](x, y, out, n, BLOCK=1024, num_warps=4)

Positional arguments bind the kernel's parameters in order, constexprs
included, as in Triton; keyword arguments bind any parameter by name;
constexprs not given take their defaults. The first launch
with new argument types (and constexprs, options, device) binds a launcher in
libkiln; later launches look it up in a dict and make one ctypes call with a
buffer built by one struct.pack.
"""
import ctypes
import json
import numbers
import os
import struct
import sys
import types

from . import _lib
from .errors import (ArgumentOverflowError, CompilationError,
                     KernelNotFoundError, KilnError, KilnWarning, LaunchError,
                     check)

_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_U64_MAX = (1 << 64) - 1

from ._args import (  # noqa: F401  (_kjit.* for the drop-in)
    _ELEMENT_BYTES, _TYPESTRS, _append_values, _arg_count, _describe_descriptor,
    _descriptor_bits, _descriptor_key_values, _device_index, _fill_prototype,
    _first_device, _is_descriptor, _kiln_dtype)


def _literal(name, value):
    """The Python literal text Kiln's compiler parses for a constexpr.
    Subclasses (an IntEnum member, a str enum) are spelled by their value,
    as Triton specializes them: vLLM passes KV_QUANT_MODE=KVQuantMode.NONE."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return repr(bool(value))
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, float):
        value = float(value)
        if value != value:
            return "float('nan')"
        if value in (float("inf"), float("-inf")):
            return ("-" if value < 0 else "") + "float('inf')"
        return repr(value)
    # A dtype of `triton.language` (Triton's own, or the drop-in's), which
    # spell themselves so: `DTYPE=tl.bfloat16`.
    text = repr(value)
    if text.startswith("triton.language.") and text[16:].isidentifier():
        return "tl." + text[16:]
    raise LaunchError(
        "constexpr `%s`: cannot pass a value of type %s (expected int, "
        "float, bool, str, None or a triton.language dtype)"
        % (name, type(value).__name__))


def _default_value(text):
    """A constexpr default as Python sees it (for grid callables)."""
    import ast
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


# Without argtypes: launches pass prebuilt c_void_p / c_size_t objects.
_launcher_launch = _lib.launcher_launch_raw
# kernel[grid]: `grid` bound as the first argument. A method object is
# cheaper to make and to call than functools.partial (vectorcall prepends
# it in place), and this runs on every launch.
_bound = types.MethodType
# Types with data_ptr() seen so far (torch.Tensor, stand-ins): the hit path
# tests membership instead of looking the method up.
_tensor_types = set()
# Classes seen to be host tensor descriptors (the same shortcut).
_descriptor_types = set()
# torch's "current raw stream" function, found once torch is imported.
_raw_stream = None


def _find_stream(device):
    """The current torch stream on `device` (0, the default stream, when
    torch is not imported: then no torch tensor can be in the launch)."""
    global _raw_stream
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return 0
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        def raw(d):
            return torch.cuda.current_stream(d).cuda_stream
    _raw_stream = raw
    return raw(max(device, 0))



_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _show_warnings():
    """The compiler's warnings since the last call, as a KilnWarning shown
    at the user's call (the first frame outside this package and its
    generated launchers)."""
    p = ctypes.c_void_p()
    if _lib.take_warnings(ctypes.byref(p)) != 0 or not p.value:
        return
    text = _lib.take_string(p.value)
    level, frame = 2, sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith(_PACKAGE_DIR)
                                 or frame.f_code.co_filename.startswith("<kiln ")):
        frame, level = frame.f_back, level + 1
    import warnings
    warnings.warn(KilnWarning(text), stacklevel=level)

class Compiled:
    """A compiled specialization: its PTX and KernelInfo (as ln-compile
    writes them)."""

    def __init__(self, ptx, info_json):
        self.ptx = ptx
        self.info_json = info_json
        self.info = json.loads(info_json)

    def __repr__(self):
        return "<kiln.Compiled %s>" % self.info.get("name")


class _Launch:
    """What one specialization needs on the hit path: the launcher (also as
    a prebuilt c_void_p), the packer, the buffer size as a c_size_t."""
    __slots__ = ("handle", "pack", "meta", "c_handle", "c_size")

    def __init__(self, handle, pack, meta, size=0):
        self.handle = handle
        self.pack = pack
        self.meta = meta
        self.c_handle = ctypes.c_void_p(handle)
        self.c_size = ctypes.c_size_t(size)

    def __del__(self, destroy=_lib.launcher_destroy):
        handle, self.handle = self.handle, None
        if handle:
            destroy(handle)


class Kernel:
    """One @triton.jit function of a file."""

    def __init__(self, handle, name):
        self._handle = handle
        self.name = name
        count = ctypes.c_size_t()
        check(_lib.kernel_param_count(handle, ctypes.byref(count)))
        self.params = []
        self.arg_names = []      # non-constexpr, in order
        self.constexprs = {}     # name -> default (Python value) or absent
        info = _lib.ParamInfo()
        for i in range(count.value):
            check(_lib.kernel_param(handle, i, ctypes.byref(info)))
            pname = info.name.decode()
            self.params.append(pname)
            if info.is_constexpr:
                self.constexprs[pname] = (
                    _default_value(info.default_value.decode())
                    if info.default_value is not None else None)
            else:
                self.arg_names.append(pname)
        # @triton.autotune / @triton.heuristics: the runtime picks the config,
        # so callable grids are evaluated from C with the chosen meta, and
        # buffer sizes are passed (reset_to_zero / restore_value need them).
        self.decorated = bool(_lib.kernel_is_decorated(handle))
        self._arg_set = frozenset(self.arg_names)
        self._nargs = len(self.arg_names)
        # Positional arguments up to here bind runtime parameters only (the
        # common case: constexprs come last and by keyword).
        self._leading_runtime = next(
            (i for i, p in enumerate(self.params) if p in self.constexprs),
            len(self.params))
        self._launches = {}

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _lib.kernel_destroy(handle)

    def __repr__(self):
        return "<kiln.Kernel %s(%s)>" % (self.name, ", ".join(self.params))

    def __getitem__(self, grid):
        return _bound(self._call, grid)

    def _call(self, grid, *args, **kwargs):
        return self.run(grid, args, kwargs)

    # -- argument binding --------------------------------------------------

    def _bind(self, args, kwargs):
        """Triton's binding: positional args fill the parameters in order,
        constexprs included (FlashAttention passes its HAS_* flags that way);
        a constexpr given positionally joins the keywords. Runtime parameters
        may also come by keyword."""
        if len(args) > self._leading_runtime:
            if len(args) > len(self.params):
                raise LaunchError(
                    "kernel `%s` takes %d parameter(s) (%s) but %d positional "
                    "arguments were given" % (self.name, len(self.params),
                                              ", ".join(self.params), len(args)))
            runtime = []
            for pname, value in zip(self.params, args):
                if pname in self.constexprs:
                    if pname in kwargs:
                        raise LaunchError("kernel `%s`: argument `%s` given "
                                          "twice" % (self.name, pname))
                    kwargs[pname] = value
                else:
                    runtime.append(value)
            args = tuple(runtime)
        bound = list(args)
        for pname in self.arg_names[len(args):]:
            if pname not in kwargs:
                raise LaunchError(
                    "kernel `%s`: missing argument `%s` (argument #%d)" %
                    (self.name, pname, self.arg_names.index(pname) + 1))
            bound.append(kwargs.pop(pname))
        for pname in self.arg_names[:len(args)]:
            if pname in kwargs:
                raise LaunchError("kernel `%s`: argument `%s` given twice" %
                                  (self.name, pname))
        return tuple(bound)

    def _describe(self, args, with_sizes):
        """Per argument: the specialization code, the pack format, the value
        and the byte size (for pointers). A tuple's entry holds its
        elements' entries (code ("tuple", codes, fields), value the entries;
        fields: a namedtuple's "x,y", else None)."""
        return [self._describe_one(
                    "kernel `%s`: argument #%d `%s`" % (
                        self.name, i + 1, self.arg_names[i]), a, with_sizes)
                for i, a in enumerate(args)]

    def _describe_one(self, where, a, with_sizes, depth=0):
        t = type(a)
        if t not in (bool, int, float) and not hasattr(a, "data_ptr"):
            # numpy scalars and other number types
            if isinstance(a, numbers.Integral):
                a = int(a)
            elif isinstance(a, numbers.Real):
                a = float(a)
            t = type(a)
        if t is bool:
            return ("b", "q", int(a), 0)
        if t is int:
            if _I32_MIN <= a <= _I32_MAX:
                return ("i", "q", a, 0)
            if _I64_MIN <= a <= _I64_MAX:
                return ("l", "q", a, 0)
            if 0 <= a <= _U64_MAX:  # Triton's u64
                return ("u", "Q", a, 0)
            raise ArgumentOverflowError(
                "%s: integer %d does not fit in int64 or uint64" % (where, a))
        if t is float:
            return ("f", "d", a, 0)
        if a is None:
            return ("n", "Q", 0, 0)
        if isinstance(a, tuple):
            # Triton specializes a tuple element by element; its runtime
            # elements become the kernel's parameters, in order.
            if depth >= 8:
                raise LaunchError("%s: tuples nested deeper than 8" % where)
            elems = [self._describe_one("%s, element %d" % (where, k), e,
                                        with_sizes, depth + 1)
                     for k, e in enumerate(a)]
            if any(type(e[0]) is tuple and e[0][0] == "td" for e in elems):
                raise LaunchError("%s: a tensor descriptor inside a tuple is "
                                  "not supported" % where)
            full = "QQ" + "".join(e[1] + "Q" for e in elems)
            fields = getattr(type(a), "_fields", None)
            fields = ",".join(fields) if fields else None
            return (("tuple", tuple(e[0] for e in elems), fields), full[:-1],
                    elems, 0)
        spell = getattr(t, "_kiln_constexpr_spelling", None)
        if spell is not None:  # a function object Triton passes by value
            text = spell(a)
            if text is None:
                raise LaunchError("%s: the function `%s` has no source file "
                                  "Kiln can read" % (
                                      where, getattr(a, "__name__", "?")))
            return ("cx:" + text, "Q", 0, 0)
        if _is_descriptor(a):
            return _describe_descriptor(where, a)
        return self._describe_pointer(where, a, with_sizes)

    def _describe_pointer(self, where, a, with_sizes):
        if hasattr(a, "data_ptr"):
            name = _kiln_dtype(a.dtype)
            if name is None:
                raise LaunchError("%s: tensor dtype %s is not supported" %
                                  (where, a.dtype))
            if _device_index(a) < 0:
                raise LaunchError("%s: the tensor is not on a CUDA device "
                                  "(device %s)" %
                                  (where, getattr(a, "device", "?")))
            size = a.element_size() * a.numel() if with_sizes else 0
            return (a.dtype, "Q", a.data_ptr(), size)
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:
            name = _TYPESTRS.get(cai["typestr"][1:])
            if name is None:
                raise LaunchError("%s: array typestr %r is not supported" %
                                  (where, cai["typestr"]))
            size = 0
            if with_sizes:
                size = _ELEMENT_BYTES[name]
                for extent in cai["shape"]:
                    size *= extent
            return ("cai:" + name, "Q", cai["data"][0], size)
        raise LaunchError(
            "%s: cannot pass a value of type %s (expected a tensor, an "
            "object with __cuda_array_interface__, int, float, bool, None "
            "or a tuple of those)" % (where, type(a).__name__))

    def _device_of(self, args):
        d = _first_device(args)
        return 0 if d is None else d

    # -- launching ---------------------------------------------------------

    def _options(self, kwargs, device):
        """A kiln_options handle (caller destroys) and the meta dict."""
        num_warps = kwargs.pop("num_warps", 4)
        num_stages = kwargs.pop("num_stages", 3)
        # Triton's launch option for thread-block clusters: one CTA only.
        num_ctas = kwargs.pop("num_ctas", 1)
        if num_ctas != 1:
            raise LaunchError("kernel `%s`: num_ctas = %r is not supported "
                              "(Kiln launches one CTA per program)" %
                              (self.name, num_ctas))
        # Triton's: every program resident at once, or the launch fails.
        cooperative = kwargs.pop("launch_cooperative_grid", False)
        # Triton's programmatic dependent launch (cuLaunchKernelEx).
        pdl = kwargs.pop("launch_pdl", False)
        # Triton's: False keeps multiplies and adds from fusing into FMAs.
        fp_fusion = kwargs.pop("enable_fp_fusion", True)
        opts = ctypes.c_void_p()
        check(_lib.options_create(ctypes.byref(opts)))
        try:
            check(_lib.options_set_num_warps(opts, int(num_warps)), LaunchError)
            check(_lib.options_set_cooperative(opts, 1 if cooperative else 0),
                  LaunchError)
            check(_lib.options_set_pdl(opts, 1 if pdl else 0), LaunchError)
            # Triton's rule: an empty tensor's null data_ptr() is passed.
            check(_lib.options_set_null_pointers(opts, 1), LaunchError)
            check(_lib.options_set_fp_fusion(opts, 1 if fp_fusion else 0),
                  LaunchError)
            check(_lib.options_set_num_stages(opts, int(num_stages)),
                  LaunchError)
            check(_lib.options_set_device(opts, device), LaunchError)
            meta = {k: v for k, v in self.constexprs.items() if v is not None}
            for cname, value in kwargs.items():
                check(_lib.options_set_constexpr(
                    opts, cname.encode(), _literal(cname, value).encode()),
                    LaunchError)
                meta[cname] = value
            meta["num_warps"] = num_warps
            meta["num_stages"] = num_stages
            return opts, meta
        except BaseException:
            _lib.options_destroy(opts)
            raise

    @staticmethod
    def _proto_count(described):
        """kiln_args per described entry: a descriptor is its header, its
        shapes and its strides but the last; a tuple its header and its
        elements' kiln_args."""
        return [_arg_count(d) for d in described]

    @staticmethod
    def _prototype(described):
        protos = (_lib.Arg * max(1, sum(_arg_count(d) for d in described)))()
        at = 0
        for d in described:
            at = _fill_prototype(protos, at, d)
        return protos

    @staticmethod
    def _pack_values(described):
        """The values struct.pack takes for `described`, flat."""
        values = []
        for d in described:
            _append_values(values, d)
        return values

    def _new_launch(self, key, args, kwargs):
        described = self._describe(args, True)
        device = self._device_of(args)
        opts, meta = self._options(dict(kwargs), device)
        try:
            protos = self._prototype(described)
            handle = ctypes.c_void_p()
            nargs = len(protos) if described else 0
            check(_lib.kernel_bind(self._handle, protos, nargs, opts,
                                   ctypes.byref(handle)), LaunchError)
        finally:
            _lib.options_destroy(opts)
        fmt = _lib.PACKED_HEADER + "".join(d[1] + "Q" for d in described)
        packer = struct.Struct(fmt)
        entry = _Launch(handle.value, packer.pack, meta, packer.size)
        self._launches[key] = entry
        return entry

    def run(self, grid, args, kwargs):
        """Launches on `grid` (a tuple of 1-3 ints or a callable over the
        meta dict). Raises LaunchError or CompilationError."""
        if kwargs:
            if not self._arg_set.isdisjoint(kwargs):
                args = self._bind(args, kwargs)
        if len(args) != self._nargs:
            args = self._bind(args, kwargs)
        # The key, flat: argument types (ints by i32/i64 range, tensors by
        # dtype), the device, the keyword names and values. Values go to the
        # pack in the same pass.
        key = []
        values = []
        device = None
        for a in args:
            t = type(a)
            if t is int:
                key.append("i" if -0x80000000 <= a <= 0x7FFFFFFF else
                           "u" if a > 0x7FFFFFFFFFFFFFFF else "l")
                values += (a, 0)
            elif t in _tensor_types:
                key.append(a.dtype)
                # Byte sizes only matter to the autotuner.
                values += (a.data_ptr(),
                           a.element_size() * a.numel() if self.decorated
                           else 0)
                if device is None:
                    device = _device_index(a)
            elif t is float:
                key.append("f")
                values += (a, 0)
            elif t is bool:
                key.append("b")
                values += (a, 0)
            elif a is None:
                key.append("n")
                values += (0, 0)
            elif t in _descriptor_types:
                try:
                    code, rest = _descriptor_key_values(self.name, a)
                except LaunchError:  # said again naming the argument
                    return self._run_slow(grid, args, kwargs)
                key.append(code)
                base = a.base
                values.append(base.data_ptr())
                values += rest
                if device is None:
                    device = _device_index(base)
            elif hasattr(a, "data_ptr"):
                _tensor_types.add(t)  # next time through the branch above
                return self.run(grid, args, kwargs)
            elif _is_descriptor(a):
                _descriptor_types.add(t)
                return self.run(grid, args, kwargs)
            else:
                return self._run_slow(grid, args, kwargs)
        if device is None:
            device = 0
        key.append(device)
        if kwargs:
            key += kwargs
            key += kwargs.values()
        try:
            entry = self._launches[tuple(key)]
        except KeyError:
            # A new specialization: compiled at its first launch, whose
            # warnings (if any) are shown once it ran.
            self._new_launch(tuple(key), args, kwargs)
            self.run(grid, args, kwargs)
            _show_warnings()
            return
        except TypeError:  # an unhashable keyword value
            return self._run_slow(grid, args, kwargs)
        if type(grid) is not tuple:
            if self.decorated and callable(grid):
                return self._run_grid_fn(grid, args, kwargs, device)
            grid = self._grid(grid, entry, args)
        n = len(grid)
        if n == 1:
            g = (grid[0], 1, 1)
        elif n == 3:
            g = grid
        else:
            g = self._grid(grid, None, args)
        stream = _raw_stream(device) if _raw_stream else _find_stream(device)
        try:
            buf = entry.pack(g[0], g[1], g[2], 0, stream, *values)
        except struct.error as e:
            raise LaunchError("kernel `%s`: grid %r or an argument is out of "
                              "range (%s)" % (self.name, g, e))
        status = _launcher_launch(entry.c_handle, buf, entry.c_size)
        if status:
            check(status, LaunchError)

    def _grid(self, grid, entry, args):
        """A 3-tuple from a callable (called with the meta dict: constexprs,
        num_warps, num_stages and the arguments by name) or a sequence."""
        if entry is not None and callable(grid):
            meta = dict(entry.meta)
            meta.update(zip(self.arg_names, args))
            grid = grid(meta)
        grid = tuple(grid)
        if not 1 <= len(grid) <= 3:
            raise LaunchError("kernel `%s`: grid must have 1 to 3 dimensions, "
                              "got %r" % (self.name, grid))
        return grid + (1,) * (3 - len(grid))

    def _run_slow(self, grid, args, kwargs):
        """Arguments the hit path does not know (__cuda_array_interface__)."""
        described = self._describe(args, self.decorated)
        key = (tuple(d[0] for d in described), -2,
               tuple((k, repr(v)) for k, v in kwargs.items()))
        entry = self._launches.get(key) or self._new_launch(key, args, kwargs)
        values = self._pack_values(described)
        device = self._device_of(args)
        if self.decorated and callable(grid):
            return self._run_grid_fn(grid, args, kwargs, device)
        g = self._grid(grid, entry, args)
        stream = _raw_stream(device) if _raw_stream else _find_stream(device)
        try:
            buf = entry.pack(g[0], g[1], g[2], 0, stream, *values)
        except struct.error as e:
            raise LaunchError("kernel `%s`: grid %r or an argument is out of "
                              "range (%s)" % (self.name, g, e))
        check(_launcher_launch(entry.c_handle, buf, entry.c_size), LaunchError)

    def _run_grid_fn(self, grid, args, kwargs, device):
        """A callable grid of a decorated kernel: the runtime calls it (via
        kiln_kernel_launch_grid_fn) with the meta of the config it runs."""
        described = self._describe(args, True)
        protos = self._prototype(described)
        failure = []

        def callback(meta_p, grid_p, _user):
            try:
                meta = {}
                name, literal = ctypes.c_char_p(), ctypes.c_char_p()
                for i in range(_lib.meta_count(meta_p)):
                    _lib.meta_entry(meta_p, i, ctypes.byref(name),
                                    ctypes.byref(literal))
                    meta[name.value.decode()] = _default_value(
                        literal.value.decode())
                meta.update(zip(self.arg_names, args))
                g = self._grid(grid(meta), None, args)
                grid_p[0].x, grid_p[0].y, grid_p[0].z = g
                return 0
            except BaseException as e:  # re-raised after the launch
                failure.append(e)
                return _lib.ERROR_INVALID_ARGUMENT

        c_callback = _lib.GRID_FN(callback)
        opts, _ = self._options(dict(kwargs), device)
        try:
            _lib.options_set_stream(
                opts, _raw_stream(device) if _raw_stream
                else _find_stream(device))
            status = _lib.kernel_launch_grid_fn(
                self._handle, c_callback, None, protos,
                len(protos) if described else 0, opts)
        finally:
            _lib.options_destroy(opts)
        if failure:
            raise failure[0]
        check(status, LaunchError)

    # -- compile only ------------------------------------------------------

    def compile(self, *args, arch="sm_90", **kwargs):
        """Compiles the specialization these arguments select for `arch`
        without a GPU; returns a Compiled (ptx, info)."""
        if (kwargs and not self._arg_set.isdisjoint(kwargs)) or \
                len(args) != self._nargs:
            args = self._bind(args, kwargs)
        described = self._describe(args, False)
        opts, _ = self._options(dict(kwargs), 0)
        try:
            check(_lib.options_set_arch(opts, arch.encode()), LaunchError)
            protos = self._prototype(described)
            ptx, info = ctypes.c_void_p(), ctypes.c_void_p()
            nargs = len(protos) if described else 0
            check(_lib.kernel_compile(self._handle, protos, nargs,
                                      opts, ctypes.byref(ptx),
                                      ctypes.byref(info)), LaunchError)
        finally:
            _lib.options_destroy(opts)
        return Compiled(_lib.take_string(ptx.value),
                        _lib.take_string(info.value))

    def last_meta(self):
        """The meta values (constexprs, num_warps, num_stages) as text of the
        last launch on this thread (with autotuning: the chosen config)."""
        size = ctypes.c_size_t(0)
        _lib.kernel_last_meta(self._handle, None, ctypes.byref(size))
        if size.value == 0:
            check(_lib.ERROR_NOT_FOUND)
        buf = ctypes.create_string_buffer(size.value)
        check(_lib.kernel_last_meta(self._handle, buf, ctypes.byref(size)))
        return dict(line.split("=", 1)
                    for line in buf.value.decode().splitlines())


class Module:
    """A Triton-language file: `module.name` or `module["name"]` is a
    Kernel."""

    def __init__(self, path=None, source=None, filename=None,
                 ignore_decorators=False, include_dirs=(), host_bindings=()):
        handle = ctypes.c_void_p()
        if ignore_decorators or include_dirs or host_bindings:
            # Decorators applied by the caller (the drop-in triton), the
            # package roots for the file's imports, and the values of names
            # the file binds in host-dependent `if`s ("NAME=EXPR").
            dirs = [os.fsencode(d) for d in include_dirs]
            binds = [b.encode() for b in host_bindings]
            config = _lib.ModuleConfig()
            config.flags = (_lib.MODULE_IGNORE_DECORATORS
                            if ignore_decorators else 0)
            config.include_dirs = (ctypes.c_char_p * max(1, len(dirs)))(*dirs)
            config.num_include_dirs = len(dirs)
            config.host_bindings = (ctypes.c_char_p * max(1, len(binds)))(
                *binds)
            config.num_host_bindings = len(binds)
            if source is not None:
                check(_lib.module_create((filename or "<source>").encode(),
                                         source.encode(),
                                         ctypes.byref(config),
                                         ctypes.byref(handle)))
            else:
                check(_lib.module_create(os.fsencode(str(path)), None,
                                         ctypes.byref(config),
                                         ctypes.byref(handle)))
        elif source is not None:
            check(_lib.module_from_source(
                source.encode(), (filename or "<source>").encode(),
                ctypes.byref(handle)))
        else:
            check(_lib.module_from_file(str(path).encode(),
                                        ctypes.byref(handle)))
        self._handle = handle.value
        self._kernels = {}

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _lib.module_destroy(handle)

    @property
    def kernels(self):
        """Names of the file's @triton.jit kernels, in order."""
        count = ctypes.c_size_t()
        check(_lib.module_kernel_count(self._handle, ctypes.byref(count)),
              CompilationError)
        names = []
        name = ctypes.c_char_p()
        for i in range(count.value):
            check(_lib.module_kernel_name(self._handle, i, ctypes.byref(name)))
            names.append(name.value.decode())
        return names

    def __getitem__(self, name):
        k = self._kernels.get(name)
        if k is None:
            handle = ctypes.c_void_p()
            check(_lib.module_get_kernel(self._handle, name.encode(),
                                         ctypes.byref(handle)),
                  KernelNotFoundError)
            k = self._kernels[name] = Kernel(handle.value, name)
        return k

    def __getattr__(self, name):
        # Only kernel names get here; not our own fields (e.g. in __del__
        # after a failed __init__) nor Python's protocol names.
        if name.startswith("__") or name in ("_handle", "_kernels"):
            raise AttributeError(name)
        return self[name]


_modules = {}


def _kernel_of_function(obj):
    """The Kiln kernel for a Triton JITFunction (or Autotuner/Heuristics
    wrapper, or plain function): the same def in the same file."""
    import inspect
    fn = obj
    while hasattr(fn, "fn"):  # triton's wrappers keep the function in .fn
        fn = fn.fn
    path = inspect.getsourcefile(fn)
    if path is None:
        raise KilnError("kiln.jit: cannot find the source file of %r" % (obj,))
    module = _modules.get(path)
    if module is None:
        module = _modules[path] = Module(path=path)
    return module[fn.__name__]


def jit(path=None, *, source=None, filename=None):
    """The kernels of a Triton-language file (or of `source`) as a Module;
    given a @triton.jit function (or anything wrapping one in `.fn`), that
    kernel of its file: `kiln.jit(add_kernel)[grid](...)`."""
    if (path is None) == (source is None):
        raise TypeError("kiln.jit takes a path or source=")
    if path is not None and not isinstance(path, (str, bytes)) and \
            not hasattr(path, "__fspath__"):
        return _kernel_of_function(path)
    return Module(path=path, source=source, filename=filename)
