"""A kernel library's own launch layer over Triton's internals, written the
way FlagGems writes its LibEntry and LibTuner (Triton's attribute names and
call shapes, our own code): a KernelInterface that launches the first call
through `fn.run(...)`, keeps the kernel it returns and launches later calls
with `kernel[grid](*runtime_args)`; an Autotuner subclass with its own
policy that calls Triton's `prune_configs(kwargs)` and `_bench(...)`."""
import inspect

import triton
import triton.language as tl


class Entry(triton.KernelInterface):
    def __init__(self, fn):
        self.fn = fn
        self.arg_names = fn.arg_names
        jit = fn
        while not isinstance(jit, triton.runtime.JITFunction):
            jit = jit.fn
        self.jit_function = jit
        self.runtime_indices = [p.num for p in jit.params
                                if not p.is_constexpr]
        self.signature = jit.signature
        self.cache = {}
        self.first_calls = 0

    def run(self, *args, grid, warmup=False, **kwargs):
        key = tuple((a.dtype, a.data_ptr() % 16 == 0)
                    if hasattr(a, "data_ptr") else type(a)
                    for a in args) + tuple(sorted(kwargs.items()))
        names = list(self.signature.parameters)
        runtime = [a for i, a in enumerate(args) if i in self.runtime_indices]
        runtime += [kwargs[names[i]] for i in self.runtime_indices
                    if i >= len(args) and names[i] in kwargs]
        if key not in self.cache:
            self.first_calls += 1
            self.cache[key] = self.fn.run(*args, grid=grid, warmup=warmup,
                                          **kwargs)
            return self.cache[key]
        kernel = self.cache[key]
        kernel[grid](*runtime)  # the runtime arguments only
        return kernel


class Tuner(triton.runtime.Autotuner):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero,
                 restore_value, **kwargs):
        super().__init__(fn, arg_names, configs, key, reset_to_zero,
                         restore_value, **kwargs)
        self.timed = []
        self.tuned = {}

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        key = tuple(self.nargs[k] for k in self.keys)
        if key not in self.tuned:
            configs = self.prune_configs(kwargs)
            timings = {c: self._bench(*args, config=c, **kwargs)
                       for c in configs}
            self.timed.append(timings)
            self.tuned[key] = min(timings, key=timings.get)
            self.pre_hook(dict(self.nargs, **kwargs,
                               **self.tuned[key].all_kwargs()),
                          reset_only=True)
        config = self.best_config = self.tuned[key]
        out = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return out


def tuner(configs, key):
    def decorator(fn):
        return Tuner(fn, fn.arg_names, configs, key, None, None)
    return decorator


@Entry
@triton.jit
def scale_copy(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr,
               SQUARE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if SQUARE:
        x = x * x
    tl.store(out_ptr + offs, x * scale, mask=offs < n)


@Entry
@tuner(configs=[triton.Config({"BLOCK": 64}, num_warps=2),
                triton.Config({"BLOCK": 256}, num_warps=4)], key=["n"])
@triton.jit
def tuned_scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2,
             mask=offs < n)


def signature_names():
    return list(inspect.signature(scale_copy.jit_function.fn).parameters)


@triton.autotune(configs=[triton.Config({"BLOCK": 512}),
                          triton.Config({"BLOCK": 128})], key=["n"])
@triton.jit
def asserted(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 256)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n),
             mask=offs < n)
