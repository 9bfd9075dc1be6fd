"""`@triton.jit` under Kiln's drop-in: the function's file and name go to
libkiln, which compiles the kernel from its source.

The launch path is generated per kernel (Python binds the arguments by the
def's own signature) and per specialization:

    kernel[grid](x, y, out, n, BLOCK=1024)
      -> types.MethodType(run, grid)(...)        (grid bound in C)
      -> run: key = (x.dtype, y.dtype, out.dtype, n-fits-i32, BLOCK, ...)
              one dict lookup -> the specialization's launch function, which
              becomes the kernel's run with its key tested part by part
      -> launch: grid, one struct.pack of the packed buffer, one ctypes call
(the generated code: launchgen.py).

Specialization follows Triton: tensors by dtype, ints by i32/i64 range (and
16-divisibility of pointers and ints, derived by libkiln from each launch's
values), None as a constexpr None, constexprs by value, num_warps and
num_stages.
"""
import ctypes
import inspect
import os
import time
import types
import weakref

from kiln import _jit as _kjit
from kiln import _lib
from kiln import _report
from kiln.errors import (CompilationError, KernelNotFoundError, KilnError,
                         LaunchError, check)

from . import nested, sources
from .. import knobs as _knobs
from .sources import _kiln_module, _literal, _module_root  # noqa: F401
from .bindings import host_bindings
from .compiled import CompiledKernel, LaunchedKernel
from .launchgen import LaunchCodegen, _SCALARS, _current_device
from .jit_types import (Specialization, TensorWrapper,  # noqa: F401
                        reinterpret, type_canonicalisation_dict)
# Triton 3.6 defines it here too (libraries wrap tl.core helpers with it:
# `triton.runtime.jit.constexpr_function(core.get_int_dtype)`).
from ..language.core import constexpr_function  # noqa: F401,E402

__kiln__ = True

# kernel[grid]: `grid` bound as the first argument. A method object is
# cheaper to make and to call than functools.partial (vectorcall prepends
# it in place), and this runs on every launch.
_bound = types.MethodType


def _unhashable(params, values, error):
    """Names the constexpr whose value cannot key the cache."""
    for p, v in zip(params, values):
        if p.is_constexpr:
            try:
                hash(v)
            except TypeError:
                return "constexpr `%s`: a value of type %s is not hashable" % (
                    p.name, type(v).__name__)
    return "a constexpr value is not hashable (%s)" % error
_SCALARS = frozenset((int, float, bool, type(None)))
# Launch options a kernel call accepts besides its parameters.
_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg",
            "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl",
            "debug", "sanitize_overflow", "warmup", "grid", "extern_libs")


def _default_fp_fusion():
    """knobs.language.default_fp_fusion: enable_fp_fusion when a launch
    does not say."""
    from triton import knobs
    return knobs.language.default_fp_fusion


_all_jit_functions = weakref.WeakSet()


def _fp_fusion_changed():
    """knobs.language.default_fp_fusion changed: the specializations the
    hit path finds were bound for the old default; they are bound again
    (libkiln's caches keep the compiled code)."""
    for fn in list(_all_jit_functions):
        fn._cache.clear()
        fn._by_device.clear()
        fn._warm.clear()
        if fn._run != fn._first_run:
            fn._run = fn._generated_run()


_knobs._language.listeners.append(_fp_fusion_changed)


class KernelParam:
    """What Triton's JITFunction.params hold (libraries read .name and
    .is_constexpr)."""

    def __init__(self, num, param, do_not_specialize, on_alignment):
        self.num = num
        self._param = param
        self.name = param.name
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = on_alignment
        ann = param.annotation
        text = ann if isinstance(ann, str) else getattr(ann, "__name__", "")
        self.is_constexpr = "constexpr" in (text or "") or \
            _is_constexpr_class(ann)
        self.has_default = param.default is not inspect.Parameter.empty
        # inspect.Parameter.empty when there is none, as Triton's (FlagGems'
        # LibEntry compares with inspect._empty).
        self.default = param.default
        self.annotation = ann


def _is_constexpr_class(ann):
    from triton.language.core import constexpr
    return ann is constexpr or isinstance(ann, constexpr)


class KernelInterface:
    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(grid=grid, warmup=False,
                                                *args, **kwargs)


class JITFunction(KernelInterface, LaunchCodegen):
    def __init__(self, fn, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None, **_ignored):
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.debug = debug
        self.noinline = noinline
        self.launch_metadata = launch_metadata
        # Triton's repr(specialization) -> the compiled kernel's name; as in
        # Triton it is always callable (triton_kernels' specialize() calls
        # the repr of the functions it specializes with).
        self._user_repr = repr
        self.repr = repr if repr is not None else (lambda _: fn.__name__)
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__globals__ = fn.__globals__
        sig = inspect.signature(fn)
        self._signature = sig
        self._warm = {}
        names = list(sig.parameters)

        def index_set(spec):
            # Names that are no parameter are ignored, as in Triton
            # (FlagGems' stub kernels list parameters they do not have).
            out = set()
            for s in spec or ():
                if not isinstance(s, str):
                    out.add(int(s))
                elif s in names:
                    out.add(names.index(s))
            return out
        dns = index_set(do_not_specialize)
        dnsa = index_set(do_not_specialize_on_alignment)
        self.params = [KernelParam(i, p, i in dns, i in dnsa)
                       for i, p in enumerate(sig.parameters.values())]
        self.arg_names = names
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self.do_not_specialize = sorted(dns)
        self._file = None
        # Source given by _unsafe_update_src (Triton's form: from `def` on).
        self._src_override = None
        self._derived = None  # nested.DerivedSource, for messages
        # The generated launch function replaces this on first use.
        self._run = self._first_run
        # Runtime parameters given a tuple at some launch: their key is the
        # elements' (the generated run is rebuilt when one is added).
        self._tuple_params = set()
        self._cache = {}
        self._by_device = {}
        self._kernel = None
        self._stats = None
        self.fallback = None
        _all_jit_functions.add(self)

    # -- Triton's surface ---------------------------------------------------

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope "
                           "of a kernel")

    def __getitem__(self, grid):
        return _bound(self._run, grid)

    def run(self, *args, grid, warmup=False, **kwargs):
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)
        return self._run(grid, *args, **kwargs)

    def _kiln_constexpr_spelling(self):
        """How a launch passes this function as a value (a tuple element):
        its definition, __kiln_def__('PATH', 'NAME', LINE); None without a
        source file."""
        from .bindings import _def_spelling
        return _def_spelling(self.fn)

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.__qualname__)

    @property
    def signature(self):
        """inspect.Signature of the def (Triton's attribute; FlagGems'
        LibEntry reads its parameter names)."""
        return self._signature

    @property
    def cache_key(self):
        """A hash of the function's source and of what it reads, as Triton's:
        the @triton.jit functions it names (their own keys) and the
        constants it names, from its globals and closure. Libraries key
        their own tuning caches by it (FlagGems' LibTuner)."""
        return sources.cache_key(self)

    @property
    def cache(self):
        return {0: dict(self._cache)}

    def get_capture_scope(self):
        """The names the function's body can see: its module's globals and
        its closure's cells (Triton's; triton_kernels' specialize() builds
        the globals of the kernels it derives from it)."""
        fn = self.fn
        scope = dict(getattr(fn, "__globals__", {}))
        cells = getattr(fn, "__closure__", None) or ()
        for name, cell in zip(fn.__code__.co_freevars, cells):
            try:
                scope[name] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
        return scope

    # -- the Kiln kernel ----------------------------------------------------

    @property
    def src(self):
        """The def's source from `def` on, dedented (Triton's `src`)."""
        if self._src_override is not None:
            return self._src_override
        return nested.triton_src(self.fn)

    @src.setter
    def src(self, text):
        self._unsafe_update_src(text)

    def _unsafe_update_src(self, new_src):
        """Compiles `new_src` instead of the def's text from now on
        (Triton's own tests generate kernels this way)."""
        self._src_override = new_src
        self._kernel = None
        self._cache.clear()
        self._by_device.clear()
        self._warm.clear()
        self._run = self._first_run

    def kiln_kernel(self):
        """The libkiln kernel (undecorated: decorators are Python's here);
        raises CompilationError with Kiln's FILE:LINE:COL message."""
        if self._kernel is None:
            path = inspect.getsourcefile(self.fn)
            if path is None or not os.path.exists(path):
                raise CompilationError(
                    "kernel `%s`: cannot find its source file (Kiln compiles "
                    "@triton.jit functions from their .py file)" %
                    self.__name__)
            self._file = os.path.abspath(path)
            roots = _module_root(self.fn)
            bindings = host_bindings(self.fn, self._file, roots)
            if nested.needs_derived_source(self):
                self._kernel = self._derived_kernel(roots, bindings)
            else:
                module = _kiln_module(self._file, roots, bindings)
                try:
                    self._kernel = module[self.__name__]
                except KernelNotFoundError:
                    # A def inside a module-level block: not a top-level name.
                    if not nested.inside_statement(self, self._file):
                        raise
                    self._kernel = self._derived_kernel(roots, bindings)
            self._stats = _report.register(self)
        return self._kernel

    def _derived_kernel(self, roots, bindings):
        """A def inside a function, or a replaced source: compiled from the
        file's derived source (nested.py)."""
        try:
            derived = nested.SynthesizedSource(self, self._file) \
                if nested.synthesized(self) else \
                nested.DerivedSource(self, self._file)
        except (OSError, SyntaxError, LookupError) as e:
            raise CompilationError("kernel `%s`: %s" % (self.__name__, e))
        self._derived = derived
        # The derived source's bindings replace the file's for the same name
        # (a def inside `if __name__ == ...` is bound by both).
        own = {b.split("=", 1)[0] for b in derived.bindings}
        bindings = tuple(b for b in bindings
                         if "::" in b.split("=", 1)[0] or
                         b.split("=", 1)[0] not in own)
        try:
            module = _kiln_module(derived.path, roots,
                                  bindings + derived.bindings, derived.text)
            return module[self.__name__]
        except CompilationError as e:
            raise self._in_file(e) from None

    def _in_file(self, error):
        """`error` with the derived source's columns mapped to the file's
        (a nested def is compiled dedented)."""
        text = str(error) if self._derived is None else \
            self._derived.explain(str(error))
        if "error: static assertion failed" in text:
            from ..compiler.errors import CompileTimeAssertionFailure
            return CompileTimeAssertionFailure(text)
        if self._derived is None:
            return error
        return CompilationError(text)

    # -- launch path ----------------------------------------------------------

    def _key_of(self, values, num_warps, num_stages):
        extra = [v for o, v in (("num_warps", num_warps),
                                ("num_stages", num_stages))
                 if o not in self.arg_names]
        return self._keyfn(*values, *extra)

    def _too_many_positional(self, surplus):
        """Python's own message for a call with `surplus` positionals past
        the kernel's parameters (Triton's binder raises it the same way)."""
        total = len(self.params)
        required = sum(1 for p in self.params if not p.has_default)
        given = total + surplus
        if required == total:
            takes = "%d positional argument%s" % (total,
                                                 "" if total == 1 else "s")
        else:
            takes = "from %d to %d positional arguments" % (required, total)
        return TypeError("%s() takes %s but %d %s given" % (
            self.__name__, takes, given, "was" if given == 1 else "were"))

    def _first_run(self, grid, *args, **kwargs):
        self._run = self._generated_run()
        return self._run(grid, *args, **kwargs)

    def _split_options(self, kw):
        """Checks the launch options beside num_warps / num_stages; returns
        the flags: those of launch_cooperative_grid and enable_fp_fusion
        that differ from the default, as sorted (name, value) pairs (a
        launch with any has its own launcher, never the hit path's)."""
        kw = dict(kw)
        # num_ctas > 1 asks Hopper to run each program as a cluster of CTAs
        # sharing its tiles: the same program semantics, so Kiln accepts it
        # and runs each program as one CTA.
        num_ctas = kw.pop("num_ctas", 1)
        if num_ctas is not None and (type(num_ctas) is not int or
                                     num_ctas not in (1, 2, 4, 8, 16)):
            raise LaunchError("kernel `%s`: num_ctas = %r: expected 1, 2, 4, "
                              "8 or 16" % (self.__name__, num_ctas))
        for name in ("maxnreg", "enable_reflect_ftz", "debug",
                     "sanitize_overflow"):
            kw.pop(name, None)
        # Tutorial 07's extern_libs={'libdevice': path}: Kiln links one
        # libdevice per process (KILN_LIBDEVICE, else the toolkit's or
        # Triton's copy), read at its first compile; other libraries are
        # not supported.
        libs = kw.pop("extern_libs", None) or {}
        unknown = [name for name in libs if name != "libdevice"]
        if unknown:
            raise LaunchError("kernel `%s`: extern_libs %s: Kiln links only "
                              "libdevice" % (self.__name__, unknown))
        flags = []
        if not kw.pop("enable_fp_fusion", _default_fp_fusion()):
            flags.append(("enable_fp_fusion", False))
        if kw.pop("launch_cooperative_grid", False):
            flags.append(("launch_cooperative_grid", True))
        if kw.pop("launch_pdl", False):
            flags.append(("launch_pdl", True))
        if kw:
            raise TypeError("%s() got an unexpected keyword argument %r" %
                            (self.__name__, next(iter(kw))))
        return tuple(flags)

    def _slow(self, grid, values, num_warps, num_stages, kw):
        """Misses: new specializations (compile + bind), unusual keywords,
        arguments the hit path cannot key."""
        # With knobs.language.default_fp_fusion off every launch comes here
        # (the knob's listener, _fp_fusion_changed, emptied the hit path's
        # cache): their key has the flag, the hit path's has not.
        flags = self._split_options(kw) \
            if kw or not _default_fp_fusion() else ()
        if self.fallback is not None:
            return self.fallback.launch(grid, values, num_warps, num_stages)
        if num_warps is None:
            num_warps = 4
        if num_stages is None:
            num_stages = 3
        kernel = self.kiln_kernel()
        tuples = {p.name for p, v in zip(self.params, values)
                  if not p.is_constexpr and isinstance(v, tuple)} - \
            self._tuple_params
        if tuples:
            # Key these parameters by their elements from now on: a new run
            # function, and specializations bound again (libkiln's caches
            # keep the compiled code).
            self._tuple_params |= tuples
            self._cache.clear()
            self._by_device.clear()
            self._run = self._generated_run()
        try:
            key = self._key_of(values, num_warps, num_stages)
            hash(key)
        except TypeError as e:
            raise TypeError("kernel `%s`: %s" % (
                self.__name__, _unhashable(self.params, values, e))) from None
        except AttributeError:
            key = None  # e.g. __cuda_array_interface__ objects
        if key is None:
            return self._launch_generic(grid, values, num_warps, num_stages,
                                        flags)
        if flags:  # its own launcher; never on the keyword-free hit path
            key = (key, flags)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._specialize(key, values, num_warps, num_stages,
                                     None, flags)
            if entry is None:  # handed to the fallback
                return self.fallback.launch(grid, values, num_warps,
                                            num_stages)
            self._cache[key] = entry
            # libkiln compiles (or loads from its disk cache) at the first
            # launch of a new launcher: that call's time is compile time.
            t0 = time.perf_counter()
            try:
                return entry(grid, *values)
            except CompilationError as e:
                # The kernel does not compile: the fallback (if enabled and
                # installed) runs it from now on, else the error stands.
                del self._cache[key]
                from . import fallback
                self.fallback = fallback.take(self, e)
                if self.fallback is None:
                    raise self._in_file(e) from None
                if _report.counting():
                    self._stats.launches = 0
                return self.fallback.launch(grid, values, num_warps,
                                            num_stages)
            finally:
                self._stats.compile_ms += entry.__kiln_compile_ms__ + (
                    time.perf_counter() - t0) * 1e3
                _kjit._show_warnings()
        return entry(grid, *values)

    def _launch_generic(self, grid, values, num_warps, num_stages,
                        flags=()):
        kernel = self.kiln_kernel()
        rt, ce = self._split(values)
        ce.update(num_warps=num_warps, num_stages=num_stages)
        ce.update(flags)
        self._stats.launches += 1
        return kernel.run(grid, tuple(rt), ce)

    def _split(self, values):
        rt, ce = [], {}
        for p, v in zip(self.params, values):
            if p.is_constexpr:
                if v is not None:
                    ce[p.name] = v
            else:
                rt.append(v)
        return rt, ce

    def _options(self, values, num_warps, num_stages, device,
                 flags=()):
        opts = ctypes.c_void_p()
        check(_lib.options_create(ctypes.byref(opts)))
        try:
            flags = dict(flags)
            check(_lib.options_set_cooperative(
                opts, 1 if flags.get("launch_cooperative_grid") else 0),
                LaunchError)
            check(_lib.options_set_pdl(opts, 1 if flags.get("launch_pdl") else 0),
                  LaunchError)
            check(_lib.options_set_fp_fusion(
                opts, 1 if flags.get("enable_fp_fusion", True) else 0),
                LaunchError)
            # Triton's rule: an empty tensor's null data_ptr() is passed.
            check(_lib.options_set_null_pointers(opts, 1), LaunchError)
            check(_lib.options_set_num_warps(opts, int(num_warps)),
                  LaunchError)
            check(_lib.options_set_num_stages(opts, int(num_stages)),
                  LaunchError)
            check(_lib.options_set_device(opts, device), LaunchError)
            for p, v in zip(self.params, values):
                if not p.is_constexpr:
                    continue
                # Defaults go by the value Python evaluated: Kiln's compiler
                # cannot evaluate host data (vLLM's `FP8_MIN: tl.constexpr =
                # float8_info.min`, a torch.finfo). One it cannot spell is
                # left to the compiler's own evaluation of the default.
                try:
                    text = _literal(p.name, v)
                except LaunchError:
                    if p.has_default and v is p.default:
                        continue
                    raise
                check(_lib.options_set_constexpr(
                    opts, p.name.encode(), text.encode()), LaunchError)
            return opts
        except BaseException:
            _lib.options_destroy(opts)
            raise

    def _bind(self, values, num_warps, num_stages, device, flags=()):
        """Compiles (through libkiln's caches) and binds a launcher; returns
        (handle, described runtime args, compile ms)."""
        kernel = self.kiln_kernel()
        rt, _ = self._split(values)
        described = kernel._describe(rt, False)
        opts = self._options(values, num_warps, num_stages, device,
                             flags)
        t0 = time.perf_counter()
        try:
            protos = kernel._prototype(described)
            # do_not_specialize: no `:16`, no constant 1 for those ints.
            runtime = [p for p in self.params if not p.is_constexpr]
            at = 0
            for p, d, n in zip(runtime, described,
                               kernel._proto_count(described)):
                if p.do_not_specialize and d[0] in ("i", "l"):
                    protos[at].kind = _lib.ARG_INT_NOSPEC
                at += n
            handle = ctypes.c_void_p()
            nargs = len(protos) if described else 0
            check(_lib.kernel_bind(kernel._handle, protos, nargs,
                                   opts, ctypes.byref(handle)), LaunchError)
        finally:
            _lib.options_destroy(opts)
        return handle.value, described, (time.perf_counter() - t0) * 1e3

    def _specialize(self, key, values, num_warps, num_stages, device,
                    flags=()):
        rt_names = [p.name for p in self.params if not p.is_constexpr]
        rt_vals, _ = self._split(values)
        # The first argument with a device (a tuple has its first tensor's).
        first = next((i for i, v in enumerate(rt_vals)
                      if type(v) not in _SCALARS and (
                          type(v) is not tuple or
                          _kjit._first_device(v) is not None)), None)
        device_given = device
        if device is None:
            device = (_current_device() if first is None else
                      _kjit._first_device(rt_vals[first])
                      if type(rt_vals[first]) is tuple else
                      _kjit._device_index(rt_vals[first]))
            if device < 0:
                self.kiln_kernel()._describe(rt_vals, False)  # names it
                device = 0
        try:
            handle, described, ms = self._bind(values, num_warps, num_stages,
                                               device, flags)
        except CompilationError as e:
            from . import fallback
            self.fallback = fallback.take(self, e)
            if self.fallback is None:
                raise self._in_file(e) from None
            return None
        # Compiling happens at the first launch of the launcher: time it.
        # A run of its own for the entries kernel[grid] reaches (not for a
        # launch with flags, not for another device).
        own_run = device_given is None and not flags
        entry = self._entry(handle, described, rt_names, first, rt_vals,
                            device, num_warps, num_stages, flags,
                            key if own_run else None,
                            self._launched(values, described, num_warps,
                                           num_stages, device, flags))
        entry.__kiln_compile_ms__ = ms
        return entry

    def _launched(self, values, described, num_warps, num_stages, device,
                  flags=()):
        """The LaunchedKernel a specialization's launches return: it keeps
        the constexprs and argument types (no tensors) to ask libkiln for
        the compiled code when read."""
        protos = self.kiln_kernel()._prototype(described)
        nargs = len(protos) if described else 0
        consts = [v if p.is_constexpr else None
                  for p, v in zip(self.params, values)]
        return LaunchedKernel(lambda: self._compiled_kernel(
            protos, nargs, consts, num_warps, num_stages, device, flags))

    def _compiled_kernel(self, protos, nargs, values, num_warps, num_stages,
                         device, flags=()):
        """The CompiledKernel of one specialization (libkiln's compile
        cache) for `device`'s architecture, sm_90 without a driver."""
        arch = "sm_90"
        try:
            import kiln
            arch = kiln.device_arch(device)[2]
        except KilnError:
            pass  # no driver: compile for the default target
        opts = self._options(values, num_warps, num_stages, device, flags)
        try:
            check(_lib.options_set_arch(opts, arch.encode()), LaunchError)
            ptx, info = ctypes.c_void_p(), ctypes.c_void_p()
            check(_lib.kernel_compile(self.kiln_kernel()._handle, protos,
                                      nargs, opts, ctypes.byref(ptx),
                                      ctypes.byref(info)), LaunchError)
        except CompilationError as e:
            raise self._in_file(e) from None
        finally:
            _lib.options_destroy(opts)
        compiled = CompiledKernel(self, _kjit.Compiled(
            _lib.take_string(ptx.value), _lib.take_string(info.value)),
            num_warps, num_stages,
            {p.name: v for p, v in zip(self.params, values)
             if p.is_constexpr})
        if self._user_repr is not None:
            compiled.name = self._user_repr(Specialization(self, values))
        return compiled

    def _other_device(self, grid, values, device, num_warps, num_stages,
                      flags=()):
        """The same specialization on another device than the one the hit
        path's entry was bound for (each device has its own launcher)."""
        rt, _ = self._split(values)
        if device < 0:
            self.kiln_kernel()._describe(rt, False)  # raises, naming it
        key = (self._key_of(values, num_warps, num_stages), device, flags)
        entry = self._by_device.get(key)
        if entry is None:
            entry = self._specialize(key[0], values, num_warps, num_stages,
                                     device, flags)
            if entry is None:
                return self.fallback.launch(grid, values, num_warps,
                                            num_stages)
            self._by_device[key] = entry
        return entry(grid, *values)

    # -- build ahead (the autotuner's configs, in threads) --------------------

    def _bind_call(self, args, kwargs):
        """(values, num_warps, num_stages, flags) of a call, bound by
        the def's signature. A kernel parameter named like an option (the
        softmax tutorial's `num_stages: tl.constexpr`) also sets the option,
        as in Triton; other options are checked as a launch checks them."""
        kwargs = dict(kwargs)
        num_warps = (kwargs.get("num_warps", 4) if "num_warps" in
                     self.arg_names else kwargs.pop("num_warps", 4))
        num_stages = (kwargs.get("num_stages", 3) if "num_stages" in
                      self.arg_names else kwargs.pop("num_stages", 3))
        options = {k: kwargs.pop(k) for k in list(kwargs)
                   if k in _OPTIONS and k not in self.arg_names}
        options.pop("grid", None)
        options.pop("warmup", None)
        flags = self._split_options(options) \
            if options or not _default_fp_fusion() else ()
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return (tuple(bound.arguments[n] for n in self.arg_names), num_warps,
                num_stages, flags)

    def prepare_job(self, *args, grid, **kwargs):
        """For a launch of these arguments: specializes now (this thread) and
        returns a callable that compiles and loads without launching (any
        thread; it returns the ms it took), or None when there is nothing
        to build ahead. Errors are left to the launch, which reports them."""
        if self._run == self._first_run:
            self._run = self._generated_run()
        if self.fallback is not None:
            return None
        try:
            values, num_warps, num_stages, flags = self._bind_call(
                args, kwargs)
        except (TypeError, LaunchError):
            return None
        if flags:
            return None  # a launch with flags has its own launcher
        try:
            key = self._key_of(values, num_warps, num_stages)
            if key in self._cache:
                return None
            entry = self._specialize(key, values, num_warps, num_stages,
                                     None)
        except Exception:
            return None
        if entry is None:
            return None
        self._cache[key] = entry
        stats = self._stats

        def job():
            t0 = time.perf_counter()
            try:
                entry.__kiln_prepare__(grid, *values)
            except Exception:
                # The launch specializes again and reports the error (or
                # hands the kernel to the fallback).
                self._cache.pop(key, None)
                return 0.0
            ms = entry.__kiln_compile_ms__ + (time.perf_counter() - t0) * 1e3
            stats.compile_ms += ms
            return ms
        return job

    # -- compile only -------------------------------------------------------

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles without launching; returns a CompiledKernel-like object
        (asm["ptx"], metadata.num_warps/shared, n_regs, n_spills)."""
        # Scripts call warmup before every launch (the fused-softmax
        # tutorial, inside do_bench): a known specialization is a lookup.
        if self._run == self._first_run:
            self._run = self._generated_run()
        try:
            # The launch options are no part of _wkey's key.
            key = (self._wkey(*args, **kwargs), _current_device(),
                   tuple(sorted((k, v) for k, v in kwargs.items()
                                if k in _OPTIONS)), _default_fp_fusion())
            cached = self._warm.get(key)
        except Exception:
            key = cached = None
        if cached is not None:
            return cached
        values, num_warps, num_stages, flags = self._bind_call(args, kwargs)
        kernel = self.kiln_kernel()
        rt, _ = self._split(values)
        described = kernel._describe(rt, False)
        protos = kernel._prototype(described)
        result = self._compiled_kernel(protos, len(protos) if described else 0,
                                       values, num_warps, num_stages,
                                       _current_device(), flags)
        if key is not None:
            self._warm[key] = result
        return result


def jit(fn=None, *, version=None, repr=None, launch_metadata=None,
        do_not_specialize=None, do_not_specialize_on_alignment=None,
        debug=None, noinline=None, **kwargs):
    def decorator(f):
        return JITFunction(f, version=version,
                           do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=(
                               do_not_specialize_on_alignment),
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata, **kwargs)
    if fn is not None:
        return decorator(fn)
    return decorator
