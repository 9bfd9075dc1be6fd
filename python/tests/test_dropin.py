"""Kiln's drop-in `triton` against the stand-in CUDA driver: no GPU, no torch,
no Triton. The kernels are the files in dropin/ (plain Triton code)."""
import ctypes
import os
import subprocess
import sys
import time
import unittest

from kilntest_common import Device, FakeTensor, fake_launches

import kiln

kiln.install()

import triton  # noqa: E402  (the drop-in)
import triton.language as tl  # noqa: E402

from dropin import kernels  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])


def launches():
    return fake_launches(_fake)


def _has_pandas():
    try:
        import pandas  # noqa: F401
        return True
    except ImportError:
        return False


class Tensor(FakeTensor):
    """A stand-in with what the autotuner touches (zero_, clone, copy_)."""

    def __init__(self, ptr, dtype="torch.float32", numel=1024, device=None):
        sizes = {"torch.float32": 4, "torch.float16": 2, "torch.int32": 4,
                 "torch.bfloat16": 2}
        super().__init__(ptr, dtype, numel, device, sizes.get(dtype, 4))
        self.zeroed = 0
        self.restored = 0

    def zero_(self):
        self.zeroed += 1
        return self

    def clone(self):
        return Tensor(self.ptr + 0x100000, self.dtype, self._numel)

    def copy_(self, other):
        self.restored += 1
        return self


class ModulesTest(unittest.TestCase):
    def test_the_drop_in_is_triton(self):
        self.assertTrue(triton.__kiln__)
        self.assertEqual(triton.__version__, "3.6.0")
        self.assertTrue(os.path.realpath(triton.__file__).startswith(
            os.path.realpath(os.path.dirname(kiln.__file__))))
        for name in ("triton.language.extra.libdevice",
                     "triton.language.extra.cuda.libdevice",
                     "triton.language.math", "triton.testing",
                     "triton.runtime.driver",
                     "triton.tools.tensor_descriptor"):
            __import__(name)
            self.assertTrue(sys.modules[name].__kiln__, name)
        from triton.language.extra.cuda.libdevice import rsqrt
        from triton.language.extra import libdevice
        from triton.language.math import rsqrt as math_rsqrt
        self.assertEqual(rsqrt.__name__, "rsqrt")
        self.assertEqual(libdevice.tanh.__name__, "tanh")
        self.assertEqual(math_rsqrt.__name__, "rsqrt")
        with self.assertRaisesRegex(ModuleNotFoundError,
                                    "No module named 'triton.backends.nope' "
                                    "\\(kiln's drop-in triton does not "
                                    "provide it\\)"):
            __import__("triton.backends.nope")
        # vLLM's test before it uses Triton at all: exactly one backend
        # whose driver class is active.
        from triton.backends import backends
        from triton.backends.compiler import GPUTarget
        active = [x.driver for x in backends.values()
                  if x.driver and x.driver.is_active()]
        self.assertEqual(len(active), 1)
        self.assertEqual(GPUTarget("cuda", 90, 32).arch, 90)
        # Error classes host code names: every Kiln error is a TritonError.
        import triton.compiler.errors as errors
        self.assertTrue(issubclass(errors.CompilationError, triton.TritonError))
        self.assertTrue(issubclass(errors.CompileTimeAssertionFailure,
                                   errors.CompilationError))
        self.assertTrue(issubclass(kiln.LaunchError, triton.TritonError))

    def test_target_info(self):
        # triton.language.target_info from host code: the stand-in driver's
        # device; kernels ask the compiler the same questions.
        import triton.language.target_info as ti
        target = ti.current_target()
        self.assertEqual((target.backend, target.warp_size), ("cuda", 32))
        self.assertTrue(ti.is_cuda())
        self.assertFalse(ti.is_hip() or ti.is_hip_cdna3() or ti.is_hip_cdna4())
        self.assertEqual(ti.cuda_capability_geq(target.arch // 10),
                         True)
        self.assertFalse(ti.cuda_capability_geq(target.arch // 10 + 1))
        from dropin import target_info as kmod
        self.assertEqual(kmod.HOPPER_OR_NEWER, target.arch >= 90)
        before = _fake.kilnFakeLaunchCount()
        kmod.arch_flag[(1,)](Tensor(0x7000, "torch.int32"))
        self.assertEqual(_fake.kilnFakeLaunchCount(), before + 1)

    def test_host_helpers(self):
        self.assertEqual(triton.cdiv(1000, 256), 4)
        self.assertEqual([triton.next_power_of_2(n) for n in (0, 1, 5, 64,
                                                             65)],
                         [1, 1, 8, 64, 128])
        self.assertEqual(tl.float16.primitive_bitwidth, 16)
        self.assertEqual(tl.bfloat16.fp_mantissa_width, 7)
        self.assertTrue(tl.int32.is_int_signed())
        self.assertTrue(tl.uint8.is_int_unsigned())
        self.assertTrue(tl.float32.is_floating())
        self.assertEqual(repr(tl.float32), "triton.language.float32")
        c = tl.constexpr(4)
        self.assertEqual(c * 2, 8)
        self.assertEqual(3 + c, 7)
        self.assertEqual(range(c)[-1], 3)
        self.assertEqual(tl.constexpr(c).value, 4)
        self.assertEqual(kernels._SCALE.value, 2)
        config = triton.Config({"BLOCK": 64}, num_warps=2)
        self.assertEqual(config.all_kwargs(),
                         {"BLOCK": 64, "num_warps": 2, "num_stages": 3,
                          "num_ctas": 1})

    def test_calling_kernel_code_from_python_is_an_error(self):
        with self.assertRaisesRegex(RuntimeError,
                                    "Cannot call @triton.jit'd outside of "
                                    "the scope of a kernel"):
            kernels.add_kernel(1, 2, 3, 4, 5)
        with self.assertRaisesRegex(ValueError,
                                    r"Did you forget to add @triton.jit"):
            tl.arange(0, 16)

    def test_jit_records_the_function(self):
        k = kernels.add_kernel
        self.assertEqual(k.__name__, "add_kernel")
        self.assertEqual(k.arg_names, ["x_ptr", "y_ptr", "out_ptr", "n",
                                       "BLOCK"])
        self.assertEqual([p.is_constexpr for p in k.params],
                         [False, False, False, False, True])
        j = triton.jit(do_not_specialize=["n"], debug=True)(k.fn)
        self.assertEqual(j.do_not_specialize, [3])
        self.assertTrue(j.debug)

    def test_tensor_descriptor_host_object(self):
        from triton.tools.tensor_descriptor import TensorDescriptor
        d = TensorDescriptor(Tensor(0x1000), [64, 32], [32, 1], [16, 16])
        self.assertEqual(d.block_shape, [16, 16])
        with self.assertRaisesRegex(ValueError, "Last dimension must be "
                                                "contiguous"):
            TensorDescriptor(Tensor(0x1000), [64, 32], [1, 64], [16, 16])


class LaunchTest(unittest.TestCase):
    def setUp(self):
        self.x = Tensor(0x10000)
        self.y = Tensor(0x20000)
        self.out = Tensor(0x30000)

    def test_tuple_grid(self):
        kernels.add_kernel[(4,)](self.x, self.y, self.out, 1000, BLOCK=256)
        last = launches()[-1]
        self.assertEqual(last["kernel"], "add_kernel")
        self.assertEqual(last["grid"], (4, 1, 1))
        self.assertEqual(last["block"], 128)
        self.assertEqual(last["params"][:4], [0x10000, 0x20000, 0x30000,
                                              1000])

    def test_grid_lambda_over_the_meta_parameters(self):
        seen = {}

        def grid(meta):
            seen.update(meta)
            return (triton.cdiv(meta["n"], meta["BLOCK"]), 3)
        kernels.add_kernel[grid](self.x, self.y, self.out, 1000, BLOCK=128,
                                 num_warps=8)
        last = launches()[-1]
        self.assertEqual((last["grid"], last["block"]), ((8, 3, 1), 256))
        self.assertEqual((seen["BLOCK"], seen["n"], seen["num_warps"]),
                         (128, 1000, 8))
        self.assertIs(seen["x_ptr"], self.x)

    def test_specialization_key(self):
        k = triton.jit(kernels.add_kernel.fn)
        k[(1,)](self.x, self.y, self.out, 10, BLOCK=64)
        k[(1,)](self.x, self.y, self.out, 20, BLOCK=64)     # hit
        self.assertEqual(len(k._cache), 1)
        k[(1,)](self.x, self.y, self.out, 1 << 40, BLOCK=64)  # i64
        self.assertEqual(launches()[-1]["params"][3], 1 << 40)
        k[(1,)](self.x, self.y, self.out, 20, BLOCK=128)    # constexpr
        k[(1,)](self.x, self.y, self.out, 20, BLOCK=128, num_warps=2)
        h = Tensor(0x40000, "torch.float16")
        k[(1,)](h, h, h, 20, BLOCK=128)                     # dtype
        self.assertEqual(len(k._cache), 5)
        keys = sorted(k._cache, key=repr)
        self.assertIn(("torch.float16", "torch.float16", "torch.float16",
                       True, 128, 4, 3), keys)
        self.assertIn(("torch.float32", "torch.float32", "torch.float32",
                       False, 64, 4, 3), keys)
        # Positional constexpr and keyword runtime arguments bind as in
        # Triton (by the def's own signature).
        k[(1,)](self.x, self.y, n=7, out_ptr=self.out, BLOCK=64)
        self.assertEqual(launches()[-1]["params"][:4],
                         [0x10000, 0x20000, 0x30000, 7])
        k[(1,)](self.x, self.y, self.out, 9, 64)
        self.assertEqual(len(k._cache), 5)

    def test_hit_path_is_a_lookup_and_one_call(self):
        k = triton.jit(kernels.add_kernel.fn)
        k[(1,)](self.x, self.y, self.out, 10, BLOCK=64)

        def no_slow_path(*args):
            raise AssertionError("a hit went through the slow path")
        k._run.__globals__["_k_slow"] = no_slow_path
        before = len(launches())
        for n in (11, 12, 13):
            k[(2,)](self.x, self.y, self.out, n, BLOCK=64)
        k[lambda meta: (meta["n"] // meta["BLOCK"],)](
            self.x, self.y, self.out, 640, BLOCK=64)
        runs = launches()[before:]
        self.assertEqual([r["params"][3] for r in runs], [11, 12, 13, 640])
        self.assertEqual([r["grid"][0] for r in runs], [2, 2, 2, 10])
        with self.assertRaisesRegex(AssertionError, "slow path"):
            k[(1,)](self.x, self.y, self.out, 10, BLOCK=128)  # a miss

    def test_each_specialization_has_its_own_run(self):
        # After a hit, kernel[grid] calls the specialization's own run (key
        # check and launch in one function, no dict lookup); another key, or
        # keywords beyond the signature, go back through the generic run,
        # which switches to the run of the entry it finds.
        k = triton.jit(kernels.add_kernel.fn)
        h = Tensor(0x40000, "torch.float16")
        k[(1,)](self.x, self.y, self.out, 10, BLOCK=64)   # miss: specializes
        k[(1,)](self.x, self.y, self.out, 10, BLOCK=64)   # generic hit
        (f32,) = k._cache.values()
        self.assertIs(k._run, f32.__kiln_run__)
        generic = k._generic_run.__globals__
        cache = generic["_k_cache"]

        looked_up = []

        class Spy(dict):
            def __getitem__(self, key):
                looked_up.append(key)
                return dict.__getitem__(self, key)
        generic["_k_cache"] = Spy(cache)
        try:
            before = len(launches())
            for n in (11, 12):
                k[(3,)](self.x, self.y, self.out, n, BLOCK=64)
            runs = launches()[before:]
            self.assertEqual([r["params"] for r in runs],
                             [[0x10000, 0x20000, 0x30000, 11],
                              [0x10000, 0x20000, 0x30000, 12]])
            self.assertEqual([r["grid"] for r in runs], [(3, 1, 1)] * 2)
            self.assertEqual(looked_up, [])
            k[(1,)](h, h, h, 10, BLOCK=64)        # another key: generic,
            self.assertEqual(len(looked_up), 1)   # a miss, specializes fp16
        finally:
            generic["_k_cache"] = cache
        self.assertIs(k._run, f32.__kiln_run__)   # a miss does not switch
        k[(1,)](h, h, h, 14, BLOCK=64)            # generic hit: switches
        f16 = k._cache[("torch.float16",) * 3 + (True, 64, 4, 3)]
        self.assertIs(k._run, f16.__kiln_run__)
        k[(2,)](self.x, self.y, self.out, 15, BLOCK=64)
        self.assertIs(k._run, f32.__kiln_run__)
        self.assertEqual(launches()[-1]["params"],
                         [0x10000, 0x20000, 0x30000, 15])
        # Options beyond the key's go through the generic run's slow path.
        k[(2,)](self.x, self.y, self.out, 16, BLOCK=64, num_warps=2)
        self.assertEqual(launches()[-1]["block"], 64)
        self.assertEqual(len(k._cache), 3)

    def test_int_equal_to_one_is_a_constexpr(self):
        # Triton's rule, on the hit path too: n == 1 launches the variant
        # compiled with the constexpr 1 (no `n` parameter), n == 2 the other.
        k = triton.jit(kernels.add_kernel.fn)
        for n in (2, 1, 2, 1):
            k[(1,)](self.x, self.y, self.out, n, BLOCK=64)
            self.assertEqual(launches()[-1]["params"],
                             [0x10000, 0x20000, 0x30000] +
                             ([n] if n != 1 else []))
        self.assertEqual(len(k._cache), 1)  # one launcher: libkiln keys it

    def test_do_not_specialize_keeps_ints_runtime(self):
        # Triton's do_not_specialize: n == 1 stays a runtime argument.
        k = triton.jit(kernels.add_kernel.fn, do_not_specialize=["n"])
        for n in (1, 16, 1):
            k[(1,)](self.x, self.y, self.out, n, BLOCK=64)
            self.assertEqual(launches()[-1]["params"],
                             [0x10000, 0x20000, 0x30000, n])

    def test_extern_libs_option(self):
        # Tutorial 07 passes libdevice's path; Kiln links its own libdevice.
        k = triton.jit(kernels.add_kernel.fn)
        k[(1,)](self.x, self.y, self.out, 16, BLOCK=64,
                extern_libs={"libdevice": "/nonexistent/libdevice.10.bc"})
        self.assertEqual(launches()[-1]["params"][3], 16)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "extern_libs \\['ocml'\\]: Kiln "
                                    "links only libdevice"):
            k[(1,)](self.x, self.y, self.out, 16, BLOCK=64,
                    extern_libs={"ocml": "x.bc"})

    def test_none_is_a_constexpr_and_defaults_apply(self):
        k = kernels.bias_kernel
        k[(1,)](self.out, None, 2.0, 16, BLOCK=64)
        none_launch = launches()[-1]
        # bias_ptr is specialized away: out, alpha (f32 bits), n.
        self.assertEqual(none_launch["params"][0], 0x30000)
        self.assertEqual(none_launch["params"][2], 16)
        k[(1,)](self.out, self.x, 2.0, 16, BLOCK=64, ACT="relu")
        self.assertEqual(launches()[-1]["params"][:2], [0x30000, 0x10000])
        self.assertEqual(len(k._cache), 2)

    def test_helpers_imported_from_another_module(self):
        from dropin import imported
        k = imported.twice_plus_offset
        compiled = k.warmup(self.x, self.out, 8, BLOCK=64, grid=(1,))
        ptx = compiled.asm["ptx"]
        self.assertIn(".entry twice_plus_offset", ptx)
        self.assertIn("0f40E00000", ptx)  # OFFSET = 7 from dropin.helpers
        k[(1,)](self.x, self.out, 8, BLOCK=64)
        self.assertEqual(launches()[-1]["kernel"], "twice_plus_offset")

    def test_run_and_warmup(self):
        kernels.add_kernel.run(self.x, self.y, self.out, 5, BLOCK=32,
                               grid=(2,))
        self.assertEqual(launches()[-1]["grid"], (2, 1, 1))
        compiled = kernels.add_kernel.warmup(self.x, self.y, self.out, 5,
                                             BLOCK=32, grid=(1,))
        self.assertIn(".entry add_kernel", compiled.asm["ptx"])
        self.assertEqual(compiled.metadata.num_warps, 4)
        self.assertGreater(compiled.n_regs, 0)

    def test_warmup_then_launch_the_compiled_kernel(self):
        # The fused-softmax tutorial: warmup with options, occupancy from
        # n_regs and metadata.shared, then compiled[grid](*all_args).
        k = kernels.rows_copy
        compiled = k.warmup(self.out, self.x, 10, 100, BLOCK=128,
                            num_stages=4, num_warps=8, grid=(1,))
        compiled._init_handles()
        # Called before every launch by the tutorial: cached.
        self.assertIs(k.warmup(self.out, self.x, 10, 100, BLOCK=128,
                               num_stages=4, num_warps=8, grid=(1,)),
                      compiled)
        self.assertIsNot(k.warmup(self.out, self.x, 10, 100, BLOCK=64,
                                  num_stages=4, num_warps=8, grid=(1,)),
                         compiled)
        self.assertEqual(compiled.metadata.num_warps, 8)
        self.assertGreater(compiled.metadata.shared, 0)
        self.assertTrue(16 <= compiled.n_regs <= 255)
        compiled[(5, 1, 1)](self.out, self.x, 10, 100, 128, 4)
        last = launches()[-1]
        self.assertEqual((last["kernel"], last["grid"], last["block"]),
                         ("rows_copy", (5, 1, 1), 256))
        self.assertEqual(last["params"][:4], [0x30000, 0x10000, 10, 100])
        self.assertIn(("torch.float32", "torch.float32", True, True, 128, 4,
                       8, 4), k._cache)

    def test_argument_errors(self):
        with self.assertRaisesRegex(TypeError, "add_kernel\\(\\) missing 1 "
                                    "required positional argument: 'BLOCK'"):
            kernels.add_kernel[(1,)](self.x, self.y, self.out, 5)
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument "
                                    "'BLOKC'"):
            kernels.add_kernel[(1,)](self.x, self.y, self.out, 5, BLOCK=32,
                                     BLOKC=4)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument #2 `y_ptr`: cannot pass a value "
                                    "of type object"):
            kernels.add_kernel[(1,)](self.x, object(), self.out, 5, BLOCK=32)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "`x_ptr`: the tensor is not on a CUDA "
                                    "device"):
            kernels.add_kernel[(1,)](Tensor(0x10, device=Device("cpu")),
                                     self.y, self.out, 5, BLOCK=32)
        with self.assertRaisesRegex(kiln.LaunchError, "grid must have 1 to 3 "
                                    "dimensions"):
            kernels.add_kernel[(1, 1, 1, 1)](self.x, self.y, self.out, 5,
                                             BLOCK=32)
        with self.assertRaisesRegex(kiln.LaunchError, "num_ctas = 0"):
            kernels.add_kernel[(1,)](self.x, self.y, self.out, 5, BLOCK=32,
                                     num_ctas=0)
        # A cluster of CTAs per program (Hopper) runs as one CTA: same
        # semantics, so it launches.
        before = len(launches())
        kernels.add_kernel[(1,)](self.x, self.y, self.out, 5, BLOCK=32,
                                 num_ctas=2)
        self.assertEqual(len(launches()), before + 1)

    def test_launch_returns_the_compiled_kernel(self):
        # Triton returns the CompiledKernel it ran (tests read h.asm["ptx"],
        # h.n_regs); Kiln returns one object per specialization, compiled
        # code fetched when first read.
        h = kernels.add_kernel[(1,)](self.x, self.y, self.out, 7, BLOCK=64)
        self.assertIs(h, kernels.add_kernel[(2,)](self.x, self.y, self.out,
                                                  9, BLOCK=64))
        self.assertIn(".entry add_kernel", h.asm["ptx"])
        self.assertEqual(h.metadata.num_warps, 4)
        self.assertGreater(h.n_regs, 0)
        other = kernels.add_kernel[(1,)](self.x, self.y, self.out, 7,
                                         BLOCK=128)
        self.assertIsNot(h, other)

    def test_compile_error_carries_file_line_col(self):
        from dropin import broken
        with self.assertRaises(triton.CompilationError) as cm:
            broken.broken_kernel[(1,)](self.x, BLOCK=16)
        text = str(cm.exception)
        self.assertRegex(text, r"broken\.py:9:\d+: error: .*zz")
        self.assertIsInstance(cm.exception, kiln.CompilationError)

    def test_store_through_a_const_pointer_is_refused(self):
        k = kernels.const_copy
        k[(1,)](self.x, self.out, self.y, False, BLOCK=16)
        self.assertEqual(launches()[-1]["kernel"], "const_copy")
        with self.assertRaises(triton.CompilationError) as cm:
            k[(1,)](self.x, self.out, self.y, True, BLOCK=16)
        self.assertRegex(str(cm.exception),
                         r"kernels\.py:\d+:14: error: Cannot store to a "
                         r"constant pointer: `tl.store` writes through const "
                         r"tensor<16x!tile.ptr<f32>>")


class DecoratorTest(unittest.TestCase):
    def test_autotune_times_configs_from_a_host_function(self):
        x, out = Tensor(0x10000), Tensor(0x20000)
        tuner = kernels.tuned_copy
        self.assertEqual([c.kwargs["BLOCK"] for c in tuner.configs],
                         [64, 128, 256])
        times = iter([3.0, 1.0, 2.0])
        tuner.user_do_bench = lambda call: (call(), next(times))[1]
        before = len(launches())
        tuner[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](
            x, out, 1000)
        runs = launches()[before:]
        # Three timed configs, then the chosen one (BLOCK 128, 4 warps).
        self.assertEqual([r["block"] for r in runs], [64, 128, 256, 128])
        self.assertEqual([r["grid"][0] for r in runs], [16, 8, 4, 8])
        self.assertEqual(tuner.best_config.kwargs, {"BLOCK": 128})
        # reset_to_zero before each trial, and once more before the chosen
        # config's launch (Triton's pre_hook(..., reset_only=True)).
        self.assertEqual(out.zeroed, 4)
        before = len(launches())
        tuner[(1,)](x, out, 1000)            # same key: no re-tuning
        self.assertEqual(len(launches()), before + 1)
        self.assertEqual(launches()[-1]["block"], 128)
        with self.assertRaisesRegex(ValueError, "Conflicting "
                                    "meta-parameters: BLOCK"):
            tuner.user_do_bench = lambda call: (call(), 1.0)[1]
            tuner[(1,)](x, out, 77, BLOCK=32)

    def test_report_counts_tuning_time(self):
        from kiln import _report
        x, out = Tensor(0x10000), Tensor(0x20000)
        saved = os.environ.get("KILN_REPORT")
        os.environ["KILN_REPORT"] = "1"
        try:
            k = triton.autotune(configs=kernels.block_configs(), key=["n"])(
                triton.jit(kernels.tuned_copy.fn.fn))
            k.user_do_bench = lambda call: (call(), time.sleep(0.002),
                                            1.0)[2]
            k[(1,)](x, out, 1000)
            k[(1,)](x, out, 1000)            # same key: not tuned again
            k[(1,)](x, out, 2000)
        finally:
            if saved is None:
                os.environ.pop("KILN_REPORT")
            else:
                os.environ["KILN_REPORT"] = saved
        stats = k.fn._stats
        self.assertEqual(stats.tuned_keys, 2)
        # Two keys of three configs, each timed run sleeping 2 ms.
        self.assertGreaterEqual(stats.tune_bench_ms, 2 * 3 * 2.0)
        self.assertGreaterEqual(stats.tune_build_ms, 0.0)
        self.assertRegex(_report.format_report(),
                         r"\n    autotuned 2 key\(s\): [0-9.]+ ms building "
                         r"configs ahead, [0-9.]+ ms timing them")

    def test_build_threads(self):
        from triton.runtime import autotuner
        saved = os.environ.pop("KILN_BUILD_THREADS", None)
        try:
            self.assertEqual(autotuner.build_threads(), os.cpu_count() or 4)
            os.environ["KILN_BUILD_THREADS"] = " 3 "
            self.assertEqual(autotuner.build_threads(), 3)
            for bad in ("0", "two", "-1"):
                os.environ["KILN_BUILD_THREADS"] = bad
                with self.assertRaisesRegex(
                        ValueError, r"KILN_BUILD_THREADS='%s': expected a "
                        r"positive number of threads" % bad):
                    autotuner.build_threads()
            # One thread: configs are built ahead one after another, and
            # the tuning picks as before.
            os.environ["KILN_BUILD_THREADS"] = "1"
            x, out = Tensor(0x10000), Tensor(0x20000)
            k = triton.autotune(configs=kernels.block_configs(), key=["n"])(
                triton.jit(kernels.tuned_copy.fn.fn))
            times = iter([3.0, 1.0, 2.0])
            k.user_do_bench = lambda call: (call(), next(times))[1]
            k[(1,)](x, out, 1000)
            self.assertEqual(k.best_config.kwargs, {"BLOCK": 128})
        finally:
            if saved is None:
                os.environ.pop("KILN_BUILD_THREADS", None)
            else:
                os.environ["KILN_BUILD_THREADS"] = saved

    def test_tuning_budget_and_autotune_off(self):
        from triton.runtime import autotuner
        x, out = Tensor(0x10000), Tensor(0x20000)
        env = {k: os.environ.pop(k, None)
               for k in ("KILN_AUTOTUNE_MS", "KILN_AUTOTUNE")}
        try:
            self.assertEqual(autotuner.budget_ms(), (2, 10))  # Kiln's
            os.environ["KILN_AUTOTUNE_MS"] = " 25,100"
            self.assertEqual(autotuner.budget_ms(), (25, 100))  # Triton's

            def trials(n, **decorator):
                k = triton.autotune(configs=kernels.block_configs(),
                                    key=["n"], **decorator)(
                    triton.jit(kernels.tuned_copy.fn.fn))
                before = len(launches())
                k[(1,)](x, out, n)
                return len(launches()) - before, k
            # Without a GPU a config is timed by wall clock: one run, then
            # max(5, min(rep, 10)) timed runs; plus the chosen launch.
            os.environ["KILN_AUTOTUNE_MS"] = "0,3"
            self.assertEqual(trials(100)[0], 3 * (1 + 5) + 1)
            self.assertEqual(trials(101, warmup=1, rep=7)[0],
                             3 * (1 + 7) + 1)  # the decorator's budget
            os.environ["KILN_AUTOTUNE_MS"] = "fast"
            with self.assertRaisesRegex(
                    ValueError, r"KILN_AUTOTUNE_MS='fast': expected "
                    r"WARMUP,REP in milliseconds \(e.g. 25,100"):
                trials(102)
            os.environ["KILN_AUTOTUNE"] = "off"  # first config, untimed
            count, k = trials(103)
            self.assertEqual(count, 1)
            self.assertEqual(k.best_config.kwargs, {"BLOCK": 64})
        finally:
            for key, value in env.items():
                os.environ.pop(key, None)
                if value is not None:
                    os.environ[key] = value

    def test_configs_are_built_ahead_in_threads(self):
        x, out = Tensor(0x10000), Tensor(0x20000)
        k = triton.autotune(configs=kernels.block_configs(), key=["n"])(
            triton.jit(kernels.tuned_copy.fn.fn))
        base = k.fn
        seen = []

        def bench(call):
            seen.append(len(base._cache))  # specializations when timed
            call()
            return 1.0
        k.user_do_bench = bench
        before = len(launches())
        k[(1,)](x, out, 4096)
        # All three configs were compiled and loaded before the first timed
        # run, none of them launched by it; then each is timed and the
        # chosen one launched once.
        self.assertEqual(seen, [3, 3, 3])
        self.assertEqual([r["block"] for r in launches()[before:]],
                         [64, 128, 256, 64])
        self.assertGreater(base._stats.compile_ms, 0.0)
        entry = next(iter(base._cache.values()))
        # The prepare twin packs like the launch but never launches: not on
        # this device, not through the other-device path.
        names = entry.__kiln_prepare__.__code__.co_names
        self.assertIn("_k_prep", names)
        self.assertNotIn("_k_call", names)
        self.assertNotIn("_k_other", names)
        # A config whose build fails is not kept: its timed launch builds it
        # again and reports the error with Kiln's FILE:LINE:COL.
        bad = triton.autotune(configs=[triton.Config({"BLOCK": 64}),
                                       triton.Config({"BLOCK": 100})],
                              key=["n"])(triton.jit(kernels.tuned_copy.fn.fn))
        bad.user_do_bench = lambda call: (call(), 1.0)[1]
        with self.assertRaisesRegex(kiln.CompilationError,
                                    r"kernels\.py:\d+:\d+: error: .*power"):
            bad[(1,)](x, out, 4096)
        self.assertEqual(len(bad.fn._cache), 1)  # BLOCK 64 only
        job = base.prepare_job(x, out, 4096, grid=(1,), BLOCK=64,
                               num_warps=2, num_stages=3, num_ctas=1)
        self.assertIsNone(job)  # already specialized: nothing to build

    def test_out_of_resources_skips_the_config(self):
        # The runtime's resource refusal is Triton's OutOfResources (and
        # still a kiln.LaunchError); the autotuner times such a config as inf.
        from kiln import _lib
        from kiln.errors import raise_status
        message = ("kernel `matmul_kernel` needs 264192 bytes of shared memory (0 static + "
                   "264192 dynamic); device 0 allows at most 232448 per block")
        with self.assertRaises(triton.runtime.errors.OutOfResources) as cm:
            raise_status(_lib.ERROR_LAUNCH, message)
        self.assertIsInstance(cm.exception, kiln.LaunchError)
        with self.assertRaises(kiln.LaunchError) as cm:
            raise_status(_lib.ERROR_LAUNCH, "kernel `k`: argument #1 `x`: bad")
        self.assertNotIsInstance(cm.exception, triton.runtime.errors.OutOfResources)
        x, out = Tensor(0x10000), Tensor(0x20000)
        k = triton.autotune(configs=kernels.block_configs(), key=["n"])(
            triton.jit(kernels.tuned_copy.fn.fn))
        times = iter([None, 2.0, 1.0])

        def bench(call):
            t = next(times)
            if t is None:
                raise_status(_lib.ERROR_LAUNCH, message)
            return t
        k.user_do_bench = bench
        k[(1,)](x, out, 512)
        self.assertEqual(k.best_config.kwargs, {"BLOCK": 256})
        self.assertEqual(k.configs_timings[k.configs[0]], float("inf"))

    def test_restore_value_and_prune(self):
        x, out = Tensor(0x10000), Tensor(0x20000)
        pruned = []

        def prune(configs, nargs, **kwargs):
            pruned.append(len(configs))
            return configs[:2]
        k = triton.autotune(configs=kernels.block_configs(), key=["n"],
                            restore_value=["out_ptr"],
                            prune_configs_by={"early_config_prune": prune},
                            do_bench=lambda call: (call(), 1.0)[1])(
            triton.jit(kernels.tuned_copy.fn.fn))
        before = len(launches())
        k[(1,)](x, out, 64)
        self.assertEqual(pruned, [3])
        self.assertEqual(len(launches()) - before, 3)  # two trials + run
        self.assertEqual(out.restored, 2)

    def test_heuristics_from_another_module(self):
        x, out = Tensor(0x10000), Tensor(0x20000)
        k = kernels.even_copy
        k[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](x, out, 256)
        self.assertEqual(launches()[-1]["grid"], (2, 1, 1))
        jit_fn = k.fn
        self.assertIn(("torch.float32", "torch.float32", True, 128, True, 4,
                       3), jit_fn._cache)
        k[(1,)](x, out, 100)
        self.assertIn(("torch.float32", "torch.float32", True, 128, False, 4,
                       3), jit_fn._cache)


class PerfReportTest(unittest.TestCase):
    @unittest.skipIf(_has_pandas(), "with pandas the table is pandas' (as "
                     "Triton's); the tutorials' device runs compare it")
    def test_table_and_csv_without_pandas(self):
        import io
        import tempfile
        from contextlib import redirect_stdout
        calls = []

        @triton.testing.perf_report(triton.testing.Benchmark(
            x_names=["N"], x_vals=[128, 256], line_arg="provider",
            line_vals=["a", "b"], line_names=["A", "B"], plot_name="demo",
            ylabel="ms", args={"scale": 2}))
        def bench(N, provider, scale):
            calls.append((N, provider, scale))
            value = N * scale / 1000
            # Triton accepts a (mean, min, max) triple or one value.
            return (value, value / 2, value * 2) if provider == "a" \
                else value + 1
        out = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp, redirect_stdout(out):
            rows = bench.run(print_data=True, save_path=tmp, return_df=True)
            with open(os.path.join(tmp, "demo.csv")) as f:
                csv_text = f.read()
            self.assertTrue(os.path.exists(os.path.join(tmp, "results.html")))
        self.assertEqual(calls, [(128, "a", 2), (128, "b", 2), (256, "a", 2),
                                 (256, "b", 2)])
        self.assertEqual(rows, [[128, 0.256, 1.256], [256, 0.512, 1.512]])
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "demo:")
        self.assertEqual(lines[1], "%14s  %14s  %14s" % ("N", "A (ms)",
                                                          "B (ms)"))
        self.assertEqual(lines[2].split(), ["128", "0.256", "1.256"])
        self.assertEqual(csv_text.splitlines(),
                         ["N,A (ms),B (ms)", "128,0.256,1.256",
                          "256,0.512,1.512"])
        with self.assertRaisesRegex(ValueError, r"Expected 1 values, got "
                                    r"\(1, 2\)"):
            triton.testing.perf_report(triton.testing.Benchmark(
                x_names=["N"], x_vals=[(1, 2)], line_arg="p", line_vals=[0],
                line_names=["P"], plot_name="bad", args={}))(
                lambda N, p: 1.0).run()


class RunnerTest(unittest.TestCase):
    def run_kiln(self, *args):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [os.path.dirname(HERE), HERE]))
        return subprocess.run([sys.executable, "-m", "kiln.run"] +
                              list(args), capture_output=True, text=True,
                              env=env, cwd=HERE)

    def test_report_lists_each_kernel(self):
        r = self.run_kiln("--report", os.path.join(HERE, "dropin",
                                                   "script.py"), "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "ran 3 launches; argv ['3']")
        lines = r.stderr.splitlines()
        self.assertEqual(lines[0], "kiln report: 2 kernel(s)")
        add = next(l for l in lines if l.startswith("add_kernel"))
        fields = add.split()
        self.assertEqual(fields[1], "kiln")
        self.assertGreater(float(fields[2]), 0.0)
        self.assertEqual(fields[3], "3")
        self.assertTrue(fields[4].endswith("kernels.py"))
        self.assertIn("kiln ran 2, the fallback ran 0", lines[-1])

    def test_install_after_the_real_triton_is_an_error(self):
        code = ("import triton, kiln\n"
                "try:\n"
                "    kiln.install()\n"
                "except RuntimeError as e:\n"
                "    print(e)\n")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [os.path.dirname(HERE), os.path.join(HERE, "fake_real_triton")]))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True,
                           text=True, env=env, cwd=HERE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^kiln.install\(\): the real triton is "
                                   r"already imported \(from .*fake_real_"
                                   r"triton.*\); call kiln.install\(\) "
                                   r"before importing triton")

    def test_module_mode_and_usage(self):
        r = self.run_kiln("-m", "dropin.script", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "ran 1 launches; argv ['1']")
        r = self.run_kiln("--bogus", "x.py")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown option --bogus", r.stderr)
        r = self.run_kiln("missing.py")
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot open missing.py", r.stderr)

    def test_fallback_hands_the_kernel_to_the_real_triton(self):
        # A stand-in "real Triton" on the path: the broken kernel runs there,
        # with its globals pointing at that package, and the report says so.
        env = dict(os.environ, KILN_FALLBACK="triton",
                   PYTHONPATH=os.pathsep.join(
                       [os.path.dirname(HERE), HERE,
                        os.path.join(HERE, "fake_real_triton")]))
        r = subprocess.run([sys.executable, "-m", "kiln.run", "--report",
                            os.path.join(HERE, "dropin", "script.py"),
                            "broken"], capture_output=True, text=True,
                           env=env, cwd=HERE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(),
                         "stand-in triton ran broken_kernel grid=(1,) "
                         "args=['BLOCK', 'num_stages', 'num_warps', 'x_ptr'] "
                         "tl=triton.language from=True")
        lines = r.stderr.splitlines()
        row = next(l for l in lines if l.startswith("broken_kernel"))
        self.assertEqual(row.split()[1], "triton")
        self.assertEqual(row.split()[3], "1")
        self.assertIn("fallback reason: ", r.stderr)
        self.assertRegex(r.stderr, r"fallback reason: .*broken\.py:9:\d+: "
                                   r"error: ")
        self.assertIn("kiln ran 0, the fallback ran 1", lines[-1])

    @unittest.skipIf(__import__("importlib.machinery").machinery.PathFinder
                     .find_spec("triton") is not None,
                     "a real Triton is installed: the fallback would run")
    def test_fallback_without_triton_raises_kilns_error(self):
        env_script = os.path.join(HERE, "dropin", "script.py")
        env = dict(os.environ, KILN_FALLBACK="triton")
        r = subprocess.run([sys.executable, "-m", "kiln.run", env_script,
                            "broken"], capture_output=True, text=True,
                           env=dict(env, PYTHONPATH=os.pathsep.join(
                               [os.path.dirname(HERE), HERE])), cwd=HERE)
        self.assertNotEqual(r.returncode, 0)
        self.assertRegex(r.stderr, r"broken\.py:9:\d+: error: ")


if __name__ == "__main__":
    unittest.main()
