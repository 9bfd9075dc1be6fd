"""`triton.testing`: do_bench, perf_report / Benchmark, assert_close — what
benchmark and test scripts call, as ordinary Python over torch."""
import functools
import math
import os

__kiln__ = True


def _quantile(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    pos = (len(values) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def _summarize(times, quantiles, return_mode):
    if quantiles is not None:
        out = [_quantile(times, q) for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return _quantile(times, 0.5)
    if return_mode == "mean":
        return sum(times) / len(times)
    raise ValueError("return_mode must be one of min, max, mean, median, "
                     "all (got %r)" % (return_mode,))


def _timed_runs(fn, warmup, rep, grad_to_none=None, min_reps=1,
                long_runs_once=False):
    """Milliseconds of each timed call of fn: Triton's do_bench method (CUDA
    events, a 256 MB buffer cleared before each call for a cold L2, warm-up
    calls filling `warmup` ms and timed ones filling `rep` ms by a 5-call
    estimate), with at least `min_reps` timed calls unless one call takes
    longer than `rep`. With `long_runs_once` (the autotuner), a first call
    longer than `rep` skips the estimate: one more call is the only timed
    one (2 calls where do_bench makes 8: a slow config costs the tuning
    seconds, and one run of it is long enough to rank it)."""
    import torch
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int,
                        device="cuda")
    if long_runs_once and start.elapsed_time(end) > rep:
        cache.zero_()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        return [start.elapsed_time(end)]
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end) / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate))
    n_repeat = max(1, int(rep / estimate))
    if estimate <= rep:
        n_repeat = max(n_repeat, min_reps)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
             return_mode="mean"):
    """Milliseconds per call of fn, timed with CUDA events, clearing a 256 MB
    buffer before each call as Triton does (cold L2)."""
    return _summarize(_timed_runs(fn, warmup, rep, grad_to_none), quantiles,
                      return_mode)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None,
                       return_mode="mean"):
    return do_bench(fn, rep=rep, grad_to_none=grad_to_none,
                    quantiles=quantiles, return_mode=return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """As triton.testing.assert_close: numpy's allclose check on the host
    copies (tensors or numbers)."""
    import numpy as np

    def host(v):
        if hasattr(v, "detach"):
            v = v.detach().cpu()
            if str(v.dtype) == "torch.bfloat16":
                v = v.float()
            return v.numpy()
        return np.asarray(v)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    x, y = host(x), host(y)
    if x.size > 1 or y.size > 1:
        np.testing.assert_allclose(x, y, atol=atol, rtol=rtol,
                                   equal_nan=True, err_msg=err_msg)
        return
    if not np.allclose(x, y, atol=atol, rtol=rtol, equal_nan=True):
        raise AssertionError("%s %s is not close to %s (atol=%s, rtol=%s)" %
                             (err_msg, x, y, atol, rtol))


class Benchmark:
    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names,
                 plot_name, args, xlabel="", ylabel="", x_log=False,
                 y_log=False, styles=None):
        self.x_names = x_names
        self.x_vals = x_vals
        self.x_log = x_log
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.y_log = y_log
        self.styles = styles
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.plot_name = plot_name
        self.args = args


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, show_plots, print_data, **kwargs):
        rows = []
        for x in bench.x_vals:
            xs = x if isinstance(x, (list, tuple)) else [x] * len(
                bench.x_names)
            xargs = dict(zip(bench.x_names, xs))
            row = list(xs)
            for line in bench.line_vals:
                ret = self.fn(**xargs, **{bench.line_arg: line},
                              **bench.args, **kwargs)
                row.append(ret[0] if isinstance(ret, (tuple, list))
                           else ret)
            rows.append(row)
        header = list(bench.x_names) + [
            "%s (%s)" % (n, bench.ylabel) if bench.ylabel else n
            for n in bench.line_names]
        if print_data:
            print(bench.plot_name + ":")
            print("  ".join("%14s" % h for h in header))
            for row in rows:
                print("  ".join("%14.6g" % v if isinstance(v, float)
                                else "%14s" % (v,) for v in row))
        if save_path:
            import csv
            with open(os.path.join(save_path, bench.plot_name + ".csv"),
                      "w", newline="") as f:
                csv.writer(f).writerows([header] + rows)
        if show_plots:
            try:
                import matplotlib.pyplot as plt
            except ImportError:
                return rows
            plt.figure()
            for i, name in enumerate(bench.line_names):
                plt.plot([r[0] for r in rows],
                         [r[len(bench.x_names) + i] for r in rows],
                         label=name)
            plt.legend()
            plt.xlabel(bench.xlabel)
            plt.ylabel(bench.ylabel)
            plt.show()
        return rows

    def run(self, show_plots=False, print_data=False, save_path="",
            return_df=False, **kwargs):
        benchmarks = self.benchmarks if isinstance(
            self.benchmarks, list) else [self.benchmarks]
        results = [self._run(b, save_path, show_plots, print_data, **kwargs)
                   for b in benchmarks]
        if return_df:
            return results if len(results) > 1 else results[0]


def perf_report(benchmarks):
    return functools.partial(Mark, benchmarks=benchmarks)


def get_dram_gbps(device=None):
    import torch
    p = torch.cuda.get_device_properties(device or 0)
    return 2 * getattr(p, "memory_clock_rate", 0) * 1e3 * \
        getattr(p, "memory_bus_width", 0) / 8 / 1e9
