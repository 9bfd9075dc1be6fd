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
    """Milliseconds per call of fn replayed from a CUDA graph, as Triton's
    do_bench_cudagraph measures: no launch gaps between the calls and no L2
    flush. fn runs once first, outside the capture (its kernels compile
    then); the graph of as many calls as fill `rep` ms (a one-call graph's
    estimate) is replayed 10 times. Where torch has no CUDA graphs it is
    do_bench."""
    import torch
    if not hasattr(torch.cuda, "CUDAGraph"):
        return do_bench(fn, rep=rep, grad_to_none=grad_to_none,
                        quantiles=quantiles, return_mode=return_mode)

    def calls(n):
        for _ in range(n):
            if grad_to_none is not None:
                for x in grad_to_none:
                    x.grad = None
            fn()

    def captured(n):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            calls(n)
        torch.cuda.synchronize()
        return graph

    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)

    def replay_ms(graph):
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end)

    with torch.cuda.stream(torch.cuda.Stream()):
        calls(1)
        torch.cuda.synchronize()
        estimate = max(replay_ms(captured(1)), 1e-6)
        n_repeat = max(1, int(rep / estimate))
        graph = captured(n_repeat)
        times = [replay_ms(graph) / n_repeat for _ in range(10)]
    return _summarize(times, quantiles, return_mode)


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

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False,
             save_precision=6, **kwargs):
        x_names = list(bench.x_names)
        means = ["%s (%s)" % (n, bench.ylabel) for n in bench.line_names]
        mins = ["%s-min (%s)" % (n, bench.ylabel) for n in bench.line_names]
        maxs = ["%s-max (%s)" % (n, bench.ylabel) for n in bench.line_names]
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else \
                [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError("Expected %d values, got %s" %
                                 (len(x_names), x))
            row_mean, row_min, row_max = [], [], []
            for line in bench.line_vals:
                ret = self.fn(**dict(zip(x_names, xs)),
                              **{bench.line_arg: line}, **bench.args,
                              **kwargs)
                try:
                    y_mean, y_min, y_max = ret
                except TypeError:
                    y_mean, y_min, y_max = ret, None, None
                row_mean.append(y_mean)
                row_min.append(y_min)
                row_max.append(y_max)
            rows.append(xs + row_mean + row_min + row_max)
        try:
            import pandas as pd
        except ImportError:
            pd = None
        if pd is None:  # the same table, without pandas' formatting
            return self._report_plain(bench, x_names + means, rows,
                                      save_path, print_data)
        # As Triton: one DataFrame (pandas makes the x columns float when
        # rows mix ints and floats), printed and saved the same way.
        df = pd.DataFrame(columns=x_names + means + mins + maxs)
        for row in rows:
            df.loc[len(df)] = row
        if bench.plot_name and (show_plots or save_path):
            self._plot(bench, df, x_names[0], means, mins, maxs, show_plots,
                       save_path)
        df = df[x_names + means]
        if diff_col and df.shape[1] == 2:
            col0, col1 = df.columns.tolist()
            df["Diff"] = df[col1] - df[col0]
        if print_data:
            print(bench.plot_name + ":")
            print(df.to_string())
        if save_path:
            df.to_csv(os.path.join(save_path, bench.plot_name + ".csv"),
                      float_format="%%.%df" % save_precision, index=False)
        return df

    @staticmethod
    def _report_plain(bench, header, rows, save_path, print_data):
        width = len(header)
        rows = [row[:width] for row in rows]
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
        return rows

    @staticmethod
    def _plot(bench, df, first_x, means, mins, maxs, show_plots, save_path):
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            return
        plt.figure()
        ax = plt.subplot()
        for i, (mean, low, high) in enumerate(zip(means, mins, maxs)):
            color = bench.styles[i][0] if bench.styles else None
            style = bench.styles[i][1] if bench.styles else None
            ax.plot(df[first_x], df[mean], label=mean, color=color,
                    ls=style)
            if not df[low].isnull().all() and not df[high].isnull().all():
                ax.fill_between(df[first_x], df[low].astype(float),
                                df[high].astype(float), alpha=0.15,
                                color=color)
        ax.legend()
        ax.set_xlabel(bench.xlabel or first_x)
        ax.set_ylabel(bench.ylabel)
        ax.set_xscale("log" if bench.x_log else "linear")
        ax.set_yscale("log" if bench.y_log else "linear")
        if show_plots:
            plt.show()
        if save_path:
            plt.savefig(os.path.join(save_path, bench.plot_name + ".png"))

    def run(self, show_plots=False, print_data=False, save_path="",
            return_df=False, **kwargs):
        benchmarks = self.benchmarks if isinstance(
            self.benchmarks, list) else [self.benchmarks]
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        results = [self._run(b, save_path, show_plots, print_data, **kwargs)
                   for b in benchmarks]
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w") as html:
                html.write("<html><body>\n")
                for b in benchmarks:
                    html.write('<image src="%s.png"/>\n' % b.plot_name)
                html.write("</body></html>\n")
        if return_df:
            return results if len(results) > 1 else results[0]


def perf_report(benchmarks):
    return functools.partial(Mark, benchmarks=benchmarks)


def get_dram_gbps(device=None):
    import torch
    p = torch.cuda.get_device_properties(device or 0)
    return 2 * getattr(p, "memory_clock_rate", 0) * 1e3 * \
        getattr(p, "memory_bus_width", 0) / 8 / 1e9
