"""`triton.autotune` / `triton.heuristics` / `triton.Config` as ordinary
Python under Kiln's drop-in: configs come from any host expression, heuristic
values from any callable; the tuner times each config by launching it
(do_bench with CUDA events when torch has CUDA, else wall time around
kiln.synchronize) and keeps the fastest per key."""
import builtins
import os
import time

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


def _bench(fn, warmup, rep):
    """Milliseconds per call of fn (median)."""
    import sys
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        from triton.testing import do_bench
        return do_bench(fn, warmup=warmup, rep=rep, return_mode="median")
    import kiln
    fn()
    kiln.synchronize()
    times = []
    for _ in range(max(3, min(rep, 10))):
        t0 = time.perf_counter()
        fn()
        kiln.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2]


# Kiln's own error for a config that needs more shared memory than the
# device has; Triton's name for it, so `except OutOfResources` catches it.
from kiln.errors import OutOfResourcesError as OutOfResources  # noqa: E402


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
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.num_warmups = 25 if warmup is None else warmup
        self.num_reps = 100 if rep is None else rep
        self.user_do_bench = do_bench
        self.cache = {}
        self.best_config = None
        self.configs_timings = None
        self.bench_time = 0.0
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)

    def _bench_one(self, nargs, config, grid, args, kwargs):
        conflicts = set(config.kwargs) & set(kwargs)
        if conflicts:
            raise ValueError(
                "Conflicting meta-parameters: %s. Make sure that you don't "
                "re-define auto-tuned symbols." % ", ".join(sorted(conflicts)))
        current = dict(kwargs, **config.all_kwargs())
        full = dict(nargs, **current)

        def pre():
            for name in self.reset_to_zero:
                full[name].zero_()
            if config.pre_hook:
                config.pre_hook(full)
            if self.user_pre_hook:
                self.user_pre_hook(full)

        def call():
            pre()
            self.fn.run(*args, grid=grid, **current)
            if self.user_post_hook:
                self.user_post_hook(full, exception=None)

        try:
            if self.user_do_bench is not None:
                return self.user_do_bench(call)
            return _bench(call, self.num_warmups, self.num_reps)
        except (OutOfResources,) as e:
            return float("inf")

    def prune_configs(self, kwargs, nargs):
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
        used_cached = True
        if len(self.configs) > 1:
            key = self._key(nargs)
            if key not in self.cache:
                used_cached = False
                pruned = self.prune_configs(kwargs, nargs)
                saved = {name: nargs[name].clone()
                         for name in self.restore_value}
                t0 = time.perf_counter()
                timings = {}
                for config in pruned:
                    timings[config] = self._bench_one(nargs, config, grid,
                                                      args, kwargs)
                    for name, copy in saved.items():
                        nargs[name].copy_(copy)
                self.bench_time = time.perf_counter() - t0
                self.cache[key] = builtins.min(timings, key=timings.get)
                self.configs_timings = timings
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        if os.environ.get("TRITON_PRINT_AUTOTUNING") == "1" and \
                not used_cached:
            print("Triton autotuning for function %s finished after %.2fs;"
                  " best config selected: %s;" % (self.__name__,
                                                  self.bench_time, config))
        full = dict(nargs, **kwargs, **config.all_kwargs())
        if config.pre_hook:
            config.pre_hook(full)
        return self.fn.run(*args, grid=grid, warmup=warmup,
                           **dict(kwargs, **config.all_kwargs()))

    def warmup(self, *args, **kwargs):
        return [self.fn.warmup(*args, **dict(kwargs, **c.all_kwargs()))
                for c in self.prune_configs(kwargs, {})]


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

    def run(self, *args, **kwargs):
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args)),
                                      **kwargs})
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args, **kwargs):
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args)),
                                      **kwargs})
        return self.fn.warmup(*args, **kwargs)


def heuristics(values):
    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)
    return decorator
