"""dot_bench_util.py's checking and alternating timing (no GPU, no torch: the two modules it
imports are stood in for, do_bench returning a fixed time per launch)."""
import sys
import types
import unittest
from unittest import mock

CALLS = []
TIMES = {}


def _do_bench(run, warmup, rep):
    CALLS.append(run.__name__)
    if isinstance(TIMES.get(run.__name__), Exception):
        raise TIMES[run.__name__]
    return TIMES[run.__name__]


_torch = types.ModuleType("torch")
_torch.cuda = types.SimpleNamespace(synchronize=lambda: None)
_testing = types.ModuleType("triton.testing")
_testing.do_bench = _do_bench
_triton = types.ModuleType("triton")
_triton.testing = _testing
with mock.patch.dict(sys.modules, {"torch": _torch, "triton": _triton,
                                   "triton.testing": _testing}):
    import dot_bench_util


class Poisonable:
    def fill_(self, value):
        self.value = value


def triton_launch():
    pass


def kiln_launch():
    pass


class TimeAlternating(unittest.TestCase):
    def setUp(self):
        CALLS.clear()
        TIMES.clear()

    def test_rounds_alternate_and_the_median_round_counts(self):
        TIMES.update(triton_launch=2.0, kiln_launch=1.0)
        t, k = {}, {}
        for row, run in ((t, triton_launch), (k, kiln_launch)):
            dot_bench_util.check_and_time(row, run, Poisonable(), None, 4e9,
                                          lambda o, r: True, timing=False)
        self.assertEqual(t, {"correct": True})  # checked, not timed
        self.assertEqual(CALLS, [])
        dot_bench_util.time_alternating([(t, triton_launch), (k, kiln_launch)], 4e9, 3)
        self.assertEqual(CALLS, ["triton_launch", "kiln_launch", "kiln_launch",
                                 "triton_launch", "triton_launch", "kiln_launch"])
        self.assertEqual(t["rounds_ms"], [2.0, 2.0, 2.0])
        self.assertEqual((t["ms"], k["ms"]), (2.0, 1.0))
        self.assertAlmostEqual(k["tflops"], 4.0)

    def test_a_failing_launch_is_an_error_not_a_time(self):
        TIMES.update(triton_launch=2.0, kiln_launch=RuntimeError("launch failed"))
        t, k = {"correct": True}, {"correct": True}
        dot_bench_util.time_alternating([(t, triton_launch), (k, kiln_launch)], 4e9, 2)
        self.assertEqual(t["ms"], 2.0)
        self.assertNotIn("ms", k)
        self.assertIn("launch failed", k["error"])

    def test_check_and_time_still_times_by_default(self):
        TIMES.update(kiln_launch=0.5)
        row = dot_bench_util.check_and_time({}, kiln_launch, Poisonable(), None, 1e9,
                                            lambda o, r: True)
        self.assertEqual((row["ms"], row["tflops"]), (0.5, 2.0))


if __name__ == "__main__":
    unittest.main()
