"""Subclasses of the drop-in's `triton.runtime.autotuner.Autotuner` written
for Triton's (flash-linear-attention's CachedAutotuner): they read and
replace Triton's hook attributes (stand-in driver and tensors; no GPU)."""
import unittest

from test_dropin import Tensor, launches

import triton  # noqa: E402  (the drop-in, installed by test_dropin)
from dropin import kernels  # noqa: E402


class AutotunerSubclassTest(unittest.TestCase):
    def test_subclass_of_tritons_autotuner(self):
        # flash-linear-attention's CachedAutotuner: a subclass that reads
        # Triton's hook attributes, replaces pre_hook / post_hook with
        # None-safe ones and wraps run().
        from triton.runtime.autotuner import Autotuner
        calls = []

        class Cached(Autotuner):
            def __init__(self, fn, arg_names, configs, key, reset_to_zero,
                         restore_value, **kwargs):
                super().__init__(fn, arg_names, configs, key, reset_to_zero,
                                 restore_value, **kwargs)
                assert not self.user_defined_pre_hook
                assert not self.user_defined_post_hook
                if self.reset_to_zero or self.restore_value:
                    def _pre_hook(kw, reset_only=False):
                        calls.append(("pre", reset_only))
                        for n in self.reset_to_zero:
                            if kw[n] is not None:
                                kw[n].zero_()
                        if not reset_only:
                            self.restore_copies = {
                                n: kw[n] for n in self.restore_value}
                    self.pre_hook = _pre_hook

                    def _post_hook(kw, exception):
                        calls.append(("post", exception))
                        for n, copy in self.restore_copies.items():
                            kw[n].copy_(copy)
                        self.restore_copies = {}
                    self.post_hook = _post_hook

            def run(self, *args, **kwargs):
                calls.append(("run", tuple(sorted(kwargs))))
                return super().run(*args, **kwargs)

        k = Cached(triton.jit(kernels.tuned_copy.fn.fn), ["x_ptr", "out_ptr",
                                                          "n"],
                   kernels.block_configs(), ["n"], ["out_ptr"], ["x_ptr"],
                   pre_hook=None, post_hook=None, prune_configs_by=None,
                   warmup=None, rep=None, use_cuda_graph=False,
                   do_bench=None, cache_results=False)
        k.user_do_bench = lambda call: (call(), 1.0)[1]
        x, out = Tensor(0x10000), Tensor(0x20000)
        before = len(launches())
        k[(4,)](x, out, 1000)
        self.assertEqual(len(launches()) - before, 4)  # 3 trials + the run
        self.assertEqual(calls[0], ("run", ("grid", "warmup")))
        self.assertEqual(calls[1:], [("pre", False), ("post", None)] * 3 +
                         [("pre", True)])
        self.assertEqual((out.zeroed, x.restored), (4, 3))
        self.assertIsNone(k.nargs)


def occupancy_paused():
    """libkiln's setting for this thread (set and put back)."""
    import ctypes
    from kiln import _lib
    previous = ctypes.c_int(0)
    _lib.set_occupancy_paused(1, ctypes.byref(previous))
    _lib.set_occupancy_paused(previous.value, None)
    return bool(previous.value)


class OccupancyPauseTest(unittest.TestCase):
    def test_configs_are_timed_with_the_occupancy_measurement_paused(self):
        # libkiln times a higher-occupancy build on a kernel's first large
        # launches; a config's timed launches must not (session 54).
        from triton.runtime.autotuner import Autotuner
        seen = []
        k = Autotuner(triton.jit(kernels.tuned_copy.fn.fn), ["x_ptr", "out_ptr", "n"],
                      kernels.block_configs(), ["n"],
                      do_bench=lambda call: (call(), seen.append(occupancy_paused()),
                                             1.0)[2])
        self.assertFalse(occupancy_paused())
        k[(4,)](Tensor(0x10000), Tensor(0x20000), 1000)
        self.assertEqual(seen, [True] * len(kernels.block_configs()))
        self.assertFalse(occupancy_paused())  # the launch after tuning measures again


if __name__ == "__main__":
    unittest.main()
