"""`triton.autotune` / `triton.heuristics` / `triton.Config` as ordinary
Python under Kiln's drop-in: configs come from any host expression, heuristic
values from any callable; the tuner times each config by launching it
(do_bench with CUDA events when torch has CUDA, else wall time around
kiln.synchronize) and keeps the fastest per key."""
import builtins
import contextlib
import copy
import ctypes
import os
import time

from kiln import _report
from .jit import KernelInterface

__kiln__ = True


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1,
                 maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        out = dict(self.kwargs)
        for name in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps,
                  "num_ctas: %s" % self.num_ctas,
                  "num_stages: %s" % self.num_stages,
                  "maxnreg: %s" % self.maxnreg]
        return ", ".join(parts)

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Config) and \
            self.all_kwargs() == other.all_kwargs()

    def __hash__(self):
        return hash(tuple(sorted((k, repr(v))
                                 for k, v in self.all_kwargs().items())))


# Kiln's tuning budget per config, in ms (warm-up, timed runs): Triton's
# do_bench spends 25 + 100 ms on each config of each new key, which is most of
# the wall time of a test suite that tunes many shapes; at 2 + 10 ms (and at
# least 5 timed runs; one when a first run outlasts the budget) the medians
# still separate configs that differ by a few percent. KILN_AUTOTUNE_MS=25,100
# restores Triton's; explicit warmup= / rep= (or do_bench=) on the decorator
# win over both.
DEFAULT_BUDGET_MS = (2, 10)
MIN_TIMED_RUNS = 5


def build_threads():
    """Threads that build a new key's configs ahead: KILN_BUILD_THREADS,
    else one per core."""
    text = os.environ.get("KILN_BUILD_THREADS", "").strip()
    if not text:
        return os.cpu_count() or 4
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError("KILN_BUILD_THREADS=%r: expected a positive number "
                         "of threads" % text)
    return value


def budget_ms():
    """(warmup, rep) in ms from KILN_AUTOTUNE_MS, else Kiln's default."""
    text = os.environ.get("KILN_AUTOTUNE_MS", "").strip()
    if not text:
        return DEFAULT_BUDGET_MS
    parts = text.split(",")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != 2 or not all(0 <= v <= 100000 for v in values):
        raise ValueError("KILN_AUTOTUNE_MS=%r: expected WARMUP,REP in "
                         "milliseconds (e.g. 25,100, Triton's budget)" % text)
    return values


def timing_enabled():
    """False under KILN_AUTOTUNE=off (first config, no timing), as in C++."""
    value = os.environ.get("KILN_AUTOTUNE", "").strip().lower()
    return value not in ("off", "0", "false", "no")


def _bench(fn, warmup, rep):
    """Milliseconds per call of fn (median)."""
    import sys
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        from triton.testing import _timed_runs, _quantile
        return _quantile(_timed_runs(fn, warmup, rep, min_reps=MIN_TIMED_RUNS,
                                     long_runs_once=True), 0.5)
    import kiln
    fn()
    kiln.synchronize()
    times = []
    for _ in range(max(MIN_TIMED_RUNS, min(int(rep), 10))):
        t0 = time.perf_counter()
        fn()
        kiln.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


@contextlib.contextmanager
def _occupancy_paused():
    """Each config timed with its own build: libkiln's first large launches
    of a kernel otherwise JIT-link a higher-occupancy build and time it
    against the own one inside the config's timed runs (fla's l2norm on the
    H200: 17 of 25 configs of a first tuning at 1.3-3.9x their kernel time;
    kiln_set_occupancy_paused in kiln.h)."""
    from kiln import _lib
    previous = ctypes.c_int(0)
    _lib.set_occupancy_paused(1, ctypes.byref(previous))
    try:
        yield
    finally:
        _lib.set_occupancy_paused(previous.value, None)


# Kiln's own error for a config that needs more shared memory than the
# device has; Triton's name for it, so `except OutOfResources` catches it.
from kiln.errors import OutOfResourcesError as OutOfResources  # noqa: E402
from ..compiler.errors import CompileTimeAssertionFailure  # noqa: E402


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None,
                 restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.base_fn = fn
        while not hasattr(self.base_fn, "_run") and hasattr(self.base_fn,
                                                             "fn"):
            self.base_fn = self.base_fn.fn
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key or [])
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        # Triton's hook attributes, which subclasses of Triton's Autotuner
        # (flash-linear-attention's CachedAutotuner) read and replace:
        # pre_hook(kwargs, reset_only=False) resets `reset_to_zero` and
        # saves `restore_value` before each timed launch, post_hook(kwargs,
        # exception) puts the saved values back after it.
        self.restore_copies = {}
        self.user_defined_pre_hook = bool(pre_hook)
        self.user_defined_post_hook = bool(post_hook)
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        self.nargs = None
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        # None: Kiln's budget (budget_ms()), read when a key is tuned.
        self.num_warmups = warmup
        self.num_reps = rep
        self.user_do_bench = do_bench
        self.cache = {}
        self.best_config = None
        self.configs_timings = None
        self.bench_time = 0.0
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)

    def _default_pre_hook(self, kwargs, reset_only=False):
        for name in self.reset_to_zero:
            if kwargs[name] is not None:
                kwargs[name].zero_()
        if not reset_only:
            self.restore_copies = {name: kwargs[name].clone()
                                   for name in self.restore_value
                                   if kwargs[name] is not None}

    def _default_post_hook(self, kwargs, exception):
        for name, copy in self.restore_copies.items():
            kwargs[name].copy_(copy)
        self.restore_copies = {}

    def _bench_one(self, nargs, config, grid, args, kwargs):
        conflicts = set(config.kwargs) & set(kwargs)
        if conflicts:
            raise ValueError(
                "Conflicting meta-parameters: %s. Make sure that you don't "
                "re-define auto-tuned symbols." % ", ".join(sorted(conflicts)))
        current = dict(kwargs, **config.all_kwargs())
        full = dict(nargs, **current)

        def call():
            if config.pre_hook:
                config.pre_hook(full)
            self.pre_hook(full)
            try:
                self.fn.run(*args, grid=grid, **current)
            except Exception as e:
                self.post_hook(full, exception=e)
                raise
            self.post_hook(full, exception=None)

        try:
            with _occupancy_paused():
                if self.user_do_bench is not None:
                    return self.user_do_bench(call)
                warmup, rep = budget_ms()
                return _bench(call, warmup if self.num_warmups is None
                              else self.num_warmups,
                              rep if self.num_reps is None else self.num_reps)
        except (OutOfResources, CompileTimeAssertionFailure):
            # As Triton: a config its own static_assert refuses, or one that
            # does not fit the device, is never the best.
            return float("inf")

    def _bench(self, *args, config, **meta):
        """Triton's _bench, which subclasses (FlagGems' LibTuner) call while
        `self.nargs` holds the launch's named arguments: the times of one
        config, as Triton's list of the median and the 20th and 80th
        percentiles (a failed config's are infinite)."""
        meta = dict(meta)
        grid = meta.pop("grid")
        meta.pop("warmup", None)
        nargs = self.nargs if self.nargs is not None else dict(
            zip(self.arg_names, args))
        ms = self._bench_one(nargs, config, grid, args, meta)
        if isinstance(ms, (list, tuple)):
            return list(ms)
        return [ms, ms, ms]

    def _hooked_args(self, config, args, kwargs):
        """The arguments as `config.pre_hook` leaves them, the caller's
        untouched: host tensor descriptors are copied before the hook runs
        (Liger's fused MLP sets each config's `block_shape` on them, which
        the kernel specializes on). Other effects of a hook (zeroing an
        output) are what Triton's timed runs repeat anyway."""
        from ..tools.tensor_descriptor import TensorDescriptor

        def own(value):
            if not isinstance(value, TensorDescriptor):
                return value
            mine = copy.copy(value)
            mine.block_shape = list(value.block_shape)
            return mine

        mine = [own(a) for a in args]
        full = dict(zip(self.arg_names, mine))
        full.update({k: own(v) for k, v in kwargs.items()})
        full.update(config.all_kwargs())
        config.pre_hook(full)
        return mine, {k: full.get(k, v) for k, v in kwargs.items()}

    def _build_ahead(self, configs, args, kwargs, grid):
        """Compiles and loads every config at once, one thread each (libkiln
        works without the GIL), before timing them one after another. A
        config's pre_hook runs first on copies of the descriptors it may
        reshape (_hooked_args); an autotuner-level pre_hook leaves every
        config to its first timed run."""
        prepare = getattr(self.fn, "prepare_job", None)
        if prepare is None or len(configs) < 2 or \
                self.user_defined_pre_hook:
            return
        jobs = []
        for config in configs:
            if set(config.kwargs) & set(kwargs):
                continue
            try:
                call_args, call_kwargs = args, kwargs
                if config.pre_hook:
                    call_args, call_kwargs = self._hooked_args(config, args,
                                                               kwargs)
                job = prepare(*call_args, grid=grid,
                              **dict(call_kwargs, **config.all_kwargs()))
            except Exception:
                job = None  # the timed launch raises it where it belongs
            if job is not None:
                jobs.append(job)
        threads = min(len(jobs), build_threads())
        if threads > 1:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(threads) as ex:
                list(ex.map(lambda job: job(), jobs))
        else:
            for job in jobs:
                job()

    def prune_configs(self, kwargs, nargs=None):
        """Triton's prune_configs(kwargs): the configs left after
        early_config_prune and the perf model, seeing the launch's named
        arguments (self.nargs while a launch tunes)."""
        if nargs is None:
            nargs = self.nargs if self.nargs is not None else {}
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, nargs, **kwargs)
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            top_k = max(1, top_k)
            if len(configs) > top_k:
                est = {c: self.perf_model(**nargs, **kwargs,
                                          **c.all_kwargs())
                       for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return list(configs)

    def _key(self, nargs):
        key = [nargs[k] for k in self.keys if k in nargs]
        for value in nargs.values():
            dtype = getattr(value, "dtype", None)
            if dtype is not None and not isinstance(value, (int, float)):
                key.append(str(dtype))
        return tuple(key)

    def run(self, *args, grid, warmup=False, **kwargs):
        nargs = dict(zip(self.arg_names, args))
        nargs.update({k: v for k, v in kwargs.items()
                      if k in self.arg_names})
        self.nargs = nargs
        used_cached = True
        if len(self.configs) > 1 and not timing_enabled():
            config = self.prune_configs(kwargs, nargs)[0]
        elif len(self.configs) > 1:
            key = self._key(nargs)
            if key not in self.cache:
                used_cached = False
                pruned = self.prune_configs(kwargs, nargs)
                t0 = time.perf_counter()
                self._build_ahead(pruned, args, kwargs, grid)
                built = time.perf_counter()
                timings = {}
                for config in pruned:
                    timings[config] = self._bench_one(nargs, config, grid,
                                                      args, kwargs)
                done = time.perf_counter()
                self.bench_time = done - t0
                stats = _kernel_stats(self.fn)
                if stats is not None:
                    stats.tuned_keys += 1
                    stats.tune_build_ms += (built - t0) * 1e3
                    stats.tune_bench_ms += (done - built) * 1e3
                self.cache[key] = builtins.min(timings, key=timings.get)
                self.configs_timings = timings
                # As Triton: zero `reset_to_zero` again for the real launch.
                self.pre_hook(dict(nargs, **kwargs), reset_only=True)
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        from triton import knobs
        if (knobs.autotuning.print or
                os.environ.get("TRITON_PRINT_AUTOTUNING") == "1") and \
                not used_cached:
            print("Triton autotuning for function %s finished after %.2fs;"
                  " best config selected: %s;" % (self.__name__,
                                                  self.bench_time, config))
        full = dict(nargs, **kwargs, **config.all_kwargs())
        if config.pre_hook:
            config.pre_hook(full)
        try:
            return self.fn.run(*args, grid=grid, warmup=warmup,
                               **dict(kwargs, **config.all_kwargs()))
        finally:
            self.nargs = None

    def warmup(self, *args, **kwargs):
        return [self.fn.warmup(*args, **dict(kwargs, **c.all_kwargs()))
                for c in self.prune_configs(kwargs, {})]


def _kernel_stats(fn):
    """The report's record of the kernel under decorators (None when the
    report is off or the kernel never compiled)."""
    if not _report.counting():
        return None
    while fn is not None and not hasattr(fn, "_stats"):
        fn = getattr(fn, "fn", None)
    return getattr(fn, "_stats", None)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
             restore_value=None, pre_hook=None, post_hook=None, warmup=None,
             rep=None, use_cuda_graph=False, do_bench=None,
             cache_results=False):
    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero,
                         restore_value, pre_hook=pre_hook,
                         post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup,
                         rep=rep, use_cuda_graph=use_cuda_graph,
                         do_bench=do_bench, cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)

    def _apply(self, args, kwargs):
        """kwargs with each heuristic's value added, in order (a later one
        sees the earlier ones)."""
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args)),
                                      **kwargs})
        return kwargs

    def run(self, *args, **kwargs):
        return self.fn.run(*args, **self._apply(args, kwargs))

    def prepare_job(self, *args, **kwargs):
        inner = getattr(self.fn, "prepare_job", None)
        return inner(*args, **self._apply(args, kwargs)) if inner else None

    def warmup(self, *args, **kwargs):
        return self.fn.warmup(*args, **self._apply(args, kwargs))


def heuristics(values):
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorator
