"""kernel_timing.run_ops against a stand-in torch (no GPU, no torch): a backward the library
refuses keeps the forward's time (fla_bench.py's gated ops under Triton 3.6 on Hopper), a
forward that fails is the row's error, and --compare prints the refusal."""
import argparse
import contextlib
import io
import sys
import types
import unittest

import kernel_timing
from test_liger_bench import compare_output


class FakeTensor:
    """What run_ops and measure touch of a tensor: float(), isfinite sums, grad."""
    def __init__(self, value=1.0, grad=True):
        self.value, self.requires_grad, self.grad = value, grad, None

    def float(self):
        return self

    def numel(self):
        return 1

    def sum(self):
        return FakeTensor(self.value, False)

    def abs(self):
        return FakeTensor(abs(self.value), False)

    def item(self):
        return self.value

    def zero_(self):
        return self


def fake_torch():
    clock = [0.0]

    class Event:
        def __init__(self, enable_timing):
            self.t = None

        def record(self):
            clock[0] += 0.002  # every call "takes" 2 us between its two records
            self.t = clock[0]

        def synchronize(self):
            pass

        def elapsed_time(self, end):
            return end.t - self.t

    torch = types.SimpleNamespace()
    torch.cuda = types.SimpleNamespace(Event=Event)
    torch.no_grad = contextlib.nullcontext
    torch.isfinite = lambda x: FakeTensor(1.0, False)
    torch.where = lambda c, x, y: x
    torch.zeros_like = lambda x: FakeTensor(0.0, False)
    torch.randn_like = lambda x: FakeTensor(1.0, False)
    torch.manual_seed = lambda s: None
    torch.empty = lambda *a, **k: FakeTensor(0.0, False)
    torch.int32 = "int32"
    return torch


def args(**kw):
    base = dict(only=None, reps=3, warmup=1, prof_reps=0, out=None)
    base.update(kw)
    return argparse.Namespace(**base)


class RunOpsTest(unittest.TestCase):
    def run_table(self, table, modes=("fwd", "full")):
        torch = fake_torch()

        def refuse(outs, grads):
            raise RuntimeError("Triton >= 3.4.0 and < 3.7.1 on Hopper GPUs produces "
                               "incorrect results")
        torch.autograd = types.SimpleNamespace(backward=refuse)
        with contextlib.redirect_stdout(io.StringIO()):
            return kernel_timing.run_ops(torch, types.SimpleNamespace(), table, args(), modes)

    def test_refused_backward_keeps_forward_time(self):
        x = FakeTensor()
        [row] = self.run_table({"gated": lambda: ((lambda: x), [x])})
        self.assertNotIn("error", row)
        self.assertAlmostEqual(row["fwd_us"], 2.0)
        self.assertNotIn("full_us", row)
        self.assertTrue(row["full_error"].startswith("RuntimeError: Triton >= 3.4.0"))
        self.assertEqual(row["checksum"], 1.0)

    def test_failing_forward_is_the_error(self):
        def broken():
            raise ValueError("no such kernel")
        [row] = self.run_table({"broken": lambda: (broken, [])})
        self.assertEqual(row["error"], "ValueError: no such kernel")
        self.assertNotIn("fwd_us", row)

    def test_compare_names_the_refusal(self):
        tri = [{"op": "chunk_gla", "backend": "triton", "fwd_us": 100.0, "checksum": 5.0,
                "full_error": "RuntimeError: refused"}]
        kiln = [{"op": "chunk_gla", "backend": "kiln", "fwd_us": 90.0, "checksum": 5.0,
                 "full_error": "RuntimeError: refused"}]
        out = compare_output(kernel_timing.compare, tri, kiln)
        line = next(l for l in out.splitlines() if l.startswith("chunk_gla"))
        self.assertIn("0.900", line)
        self.assertIn("same RuntimeError: refused", line)


class Config:
    def __init__(self, num_warps, **kwargs):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, 3


class Tuner:
    """An autotuner as Triton and Kiln's drop-in shape it: configs, configs_timings (a new
    dict per tuning; Triton's values are [median, p20, p80]), best_config, fn."""
    def __init__(self, name):
        self.fn = types.SimpleNamespace(__name__=name)
        self.configs = [Config(4, BK=32), Config(1, BK=64)]
        self.configs_timings, self.best_config = None, None

    def tune(self, times):
        self.configs_timings = dict(zip(self.configs, times))
        self.best_config = self.configs[min(range(len(times)), key=lambda i: (
            times[i][0] if isinstance(times[i], list) else times[i]))]


class TuningTest(unittest.TestCase):
    def setUp(self):
        self.module = types.ModuleType("fake_kernels_module")
        # A heuristics wrapper around the autotuner, as fla stacks its decorators.
        self.tuner = Tuner("kkt_solve")
        self.module.kkt_solve = types.SimpleNamespace(fn=self.tuner)
        self.module.untouched = Tuner("never_tuned")
        sys.modules[self.module.__name__] = self.module

    def tearDown(self):
        del sys.modules[self.module.__name__]

    def test_run_ops_records_what_tuned_during_each_op(self):
        x = FakeTensor()
        self.tuner.tune([[0.05, 0.04, 0.06], [0.07, 0.06, 0.08]])  # before any op: not kept

        def first():
            self.tuner.tune([[0.02, 0.01, 0.03], [0.03, 0.02, 0.04]])
            return x
        torch = fake_torch()
        table = {"a": lambda: (first, []), "b": lambda: ((lambda: x), [])}
        with contextlib.redirect_stdout(io.StringIO()):
            rows = kernel_timing.run_ops(torch, types.SimpleNamespace(), table, args(),
                                         ("fwd",))
        self.assertEqual(rows[0]["tuning"], {"kkt_solve": {
            "best": "BK=32 w4 s3", "timings": {"BK=32 w4 s3": 0.02, "BK=64 w1 s3": 0.03}}})
        self.assertNotIn("tuning", rows[1])  # the op tuned nothing new

    def test_compare_prints_each_config_and_the_picks(self):
        def row(backend, times, best):
            return [{"op": "gdn", "backend": backend, "fwd_us": 10.0, "checksum": 1.0,
                     "tuning": {"kkt_solve": {"best": best, "timings": times}}}]
        tri = row("triton", {"BK=32 w4 s3": 0.050, "BK=64 w1 s3": 0.040}, "BK=64 w1 s3")
        kiln = row("kiln", {"BK=32 w4 s3": 0.055, "BK=64 w1 s3": float("inf")}, "BK=32 w4 s3")
        out = compare_output(kernel_timing.compare, tri, kiln)
        lines = out.splitlines()
        self.assertIn("gdn / kkt_solve", lines)
        first = next(l for l in lines if l.strip().startswith("BK=32 w4 s3"))
        self.assertEqual(first.split()[-4:], ["K", "50.0", "55.0", "1.100"])
        second = next(l for l in lines if l.strip().startswith("BK=64 w1 s3"))
        self.assertEqual(second.split()[-4:], ["T", "40.0", "inf", "-"])
        self.assertIn("geomean per config: 1.100 over 1 configs", out)


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.module = types.ModuleType("fake_sweep_module")
        self.tuner = Tuner("kkt_solve")
        self.module.kkt_solve = types.SimpleNamespace(fn=self.tuner)
        sys.modules[self.module.__name__] = self.module
        self.saved = kernel_timing.kernel_times

    def tearDown(self):
        del sys.modules[self.module.__name__]
        kernel_timing.kernel_times = self.saved

    def test_each_config_forced_in_turn_then_restored(self):
        seen = []

        def call():  # what the op's launch would tune: record the list it was given
            seen.append(list(self.tuner.configs))
        kernel_timing.kernel_times = lambda torch, once, leaves, calls: (
            once(), {"kkt_solve": [10.0 * len(seen), 1]})[1]
        torch = fake_torch()
        with contextlib.redirect_stdout(io.StringIO()):
            rows = kernel_timing.sweep_configs(torch, {"gdn": lambda: (call, [])},
                                               args(prof_reps=1), ["kkt_solve", "absent"])
        self.assertEqual([r["config"] for r in rows], ["BK=32 w4 s3", "BK=64 w1 s3"])
        self.assertEqual([len(c) for c in seen], [2, 1, 1, 1, 1])  # first call: all configs
        self.assertEqual(seen[1][0].kwargs, {"BK": 32})
        self.assertEqual(seen[3][0].kwargs, {"BK": 64})
        self.assertEqual([r["us"] for r in rows], [30.0, 50.0])
        self.assertEqual(len(self.tuner.configs), 2)  # restored

    def test_sweep_configs_narrows_from_the_first_call(self):
        seen = []

        def call():
            seen.append([c.kwargs for c in self.tuner.configs])
        kernel_timing.kernel_times = lambda torch, once, leaves, calls: (
            once(), {"kkt_solve": [7.0, 1]})[1]
        with contextlib.redirect_stdout(io.StringIO()):
            rows = kernel_timing.sweep_configs(
                fake_torch(), {"gdn": lambda: (call, [])},
                args(prof_reps=1, sweep_configs="BK=64 w1"), ["kkt_solve"])
        self.assertEqual([r["config"] for r in rows], ["BK=64 w1 s3"])
        self.assertEqual(seen, [[{"BK": 64}]] * 3)  # the tuning call saw only that config
        self.assertEqual(len(self.tuner.configs), 2)  # restored

    def test_compare_sweeps_pairs_configs(self):
        tri = [{"op": "gdn", "kernel": "kkt", "config": "BK=32 w1 s3", "us": 50.0}]
        kiln = [{"op": "gdn", "kernel": "kkt", "config": "BK=32 w1 s3", "us": 60.0}]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            kernel_timing.compare_sweeps(tri, kiln)
        self.assertIn("1.200", out.getvalue())
        self.assertIn("geomean per config: 1.200 over 1 configs", out.getvalue())


class FlaBenchOptionsTest(unittest.TestCase):
    def test_shape_and_fwd_only_reach_run(self):
        import fla_bench
        seen = {}
        argv = sys.argv
        sys.argv = ["fla_bench.py", "--shape", "B8_T1024_H8_D64", "--fwd-only", "--only",
                    "chunk_gla"]
        try:
            kernel_timing.main(fla_bench.__doc__, lambda a: seen.update(vars(a)),
                               extra=fla_bench.options)
        finally:
            sys.argv = argv
        self.assertEqual(seen["shape"], "B8_T1024_H8_D64")
        self.assertTrue(seen["fwd_only"])
        self.assertEqual(seen["only"], "chunk_gla")


if __name__ == "__main__":
    unittest.main()
