"""A kernel library's use of Triton's internals under the drop-in (FlagGems'
patterns; stand-in driver and tensors, no GPU): a launch layer that keeps
the kernel `fn.run` returns and launches it with the runtime arguments only,
an Autotuner subclass with its own policy, and a generated kernel module
that Python never registers, whose scalar @triton.jit function host code
puts into its namespace."""
import importlib.util
import os
import tempfile
import unittest

from test_dropin import Tensor, launches

import triton  # noqa: E402  (the drop-in, installed by test_dropin)
from dropin import annotated, call_form, libwrap  # noqa: E402


class LaunchLayerTest(unittest.TestCase):
    def test_kernel_returned_by_run_launches_with_runtime_args(self):
        k = libwrap.scale_copy
        self.assertEqual(list(k.signature.parameters),
                         libwrap.signature_names())
        self.assertEqual(k.runtime_indices, [0, 1, 2, 3])
        import inspect
        self.assertIs(k.jit_function.params[4].default, inspect._empty)
        self.assertEqual(len(k.jit_function.cache_key), 64)
        x, out = Tensor(0x10000), Tensor(0x20000)
        before = len(launches())
        for scale in (1.5, 2.5, 3.5):
            k[(3,)](x, out, 1000, scale, BLOCK=512, SQUARE=True)
        self.assertEqual(k.first_calls, 1)
        runs = launches()[before:]
        self.assertEqual(len(runs), 3)
        self.assertEqual({r["kernel"] for r in runs}, {"scale_copy"})
        self.assertEqual([r["grid"] for r in runs], [(3, 1, 1)] * 3)
        # The later launches ran the first one's specialization (BLOCK 512,
        # SQUARE) with their own runtime values: the scale (fp32 bits).
        import struct
        scales = [struct.unpack("f", struct.pack("I", r["params"][3]))[0]
                  for r in runs]
        self.assertEqual(scales, [1.5, 2.5, 3.5])
        # All arguments, constexprs included (Triton 3.3+), work too.
        kernel = k.cache[next(iter(k.cache))]
        kernel[(2,)](x, out, 1000, 4.5, 512, True)
        self.assertEqual(launches()[-1]["grid"], (2, 1, 1))

    def test_autotuner_subclass_with_its_own_policy(self):
        k = libwrap.tuned_scale
        tuner = k.fn
        tuner.user_do_bench = lambda call: (call(), 2.0)[1]
        x, out = Tensor(0x10000), Tensor(0x20000)
        before = len(launches())
        k[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, 1000)
        k[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, 1000)
        # Two timed configs (Triton's list of three times each), the tuned
        # launch, then the cached kernel's launch.
        self.assertEqual(len(tuner.timed), 1)
        self.assertEqual(list(tuner.timed[0].values()), [[2.0] * 3] * 2)
        runs = launches()[before:]
        self.assertEqual(len(runs), 4)
        best = tuner.best_config.kwargs["BLOCK"]
        self.assertEqual(runs[-1]["grid"], (triton.cdiv(1000, best), 1, 1))
        self.assertEqual(runs[-1]["block"],
                         32 * tuner.best_config.num_warps)
        self.assertEqual(tuner.prune_configs({}, {"n": 3}), tuner.configs)


    def test_config_refused_by_static_assert_is_skipped(self):
        # As Triton's: CompileTimeAssertionFailure is an infinite time.
        k = libwrap.asserted
        k.user_do_bench = lambda call: (call(), 1.0)[1]
        x, out = Tensor(0x10000), Tensor(0x20000)
        k[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, 1000)
        self.assertEqual(k.best_config.kwargs, {"BLOCK": 128})
        self.assertEqual(sorted(k.configs_timings.values()),
                         [1.0, float("inf")])

    def test_cache_key_follows_dependencies(self):
        def make(offset):
            @triton.jit
            def sub(x):
                return x + OFFSET  # noqa: F821 (a global of the module)

            @triton.jit
            def main(x):
                return sub(x) * 2
            sub.__globals__["OFFSET"] = offset
            return main

        a = make(1).cache_key
        self.assertEqual(a, make(1).cache_key)
        self.assertNotEqual(a, make(2).cache_key)


class U64Test(unittest.TestCase):
    def test_ints_from_2_63_are_u64(self):
        # Triton's rule: an int in [2^63, 2^64) is a u64 parameter.
        from dropin import kernels
        k = kernels.add_kernel
        x, y, out = Tensor(0x10000), Tensor(0x20000), Tensor(0x30000)
        before = len(launches())
        for n in (2 ** 63 + 5, 2 ** 64 - 1, 1000):
            h = k[(1,)](x, y, out, n, BLOCK=128)
        runs = launches()[before:]
        self.assertEqual([r["params"][3] for r in runs],
                         [2 ** 63 + 5, 2 ** 64 - 1, 1000])
        self.assertIn(".param .u32", h.asm["ptx"])  # 1000: an i32
        big = k.warmup(x, y, out, 2 ** 63 + 5, BLOCK=128, grid=(1,))
        self.assertIn(".param .u64 add_kernel_param_3", big.asm["ptx"])

    def test_ints_outside_int64_and_uint64_raise_overflow_error(self):
        # Triton raises OverflowError (test_value_specialization_overflow).
        from dropin import kernels
        x, y, out = Tensor(0x10000), Tensor(0x20000), Tensor(0x30000)
        for n in (2 ** 64, -2 ** 63 - 1):
            with self.assertRaises(OverflowError):
                kernels.add_kernel[(1,)](x, y, out, n, BLOCK=128)
        kernels.add_kernel[(1,)](x, y, out, -2 ** 63, BLOCK=128)


class ReprTest(unittest.TestCase):
    def test_repr_names_the_compiled_kernel(self):
        # triton.jit(repr=f): f(specialization) names the kernel; it reads
        # the signature's types and the constants (ints equal to 1 among
        # them), as Triton's test_value_specialization does.
        seen = []

        def name(spec):
            seen.append((dict(spec.signature), dict(spec.constants)))
            ty = spec.signature["value1"]
            ones = "_".join(k for k, v in spec.constants.items() if v == 1)
            return "kernel_%s_%s" % (ty, ones)

        @triton.jit(repr=name)
        def kernel(value1, is_one, X, BLOCK: triton.language.constexpr):
            pass
        k = kernel
        x = Tensor(0x10000)
        for value, ty in ((-1, "i32"), (2 ** 31, "i64"), (2 ** 63, "u64")):
            h = k.warmup(value, 1, x, BLOCK=4, grid=(1,))
            self.assertEqual(h.name, "kernel_%s_is_one" % ty)
        self.assertEqual(seen[0], ({"value1": "i32", "is_one": "constexpr",
                                    "X": "*fp32", "BLOCK": "constexpr"},
                                   {"is_one": 1, "BLOCK": 4}))
        # The PTX entry keeps the function's name (what the driver loads).
        self.assertIn(".entry kernel(", h.asm["ptx"])


class FpFusionTest(unittest.TestCase):
    def test_enable_fp_fusion_false(self):
        # Triton's launch option: no multiply-add fuses into an FMA.
        from dropin import kernels
        k = kernels.axpy_kernel
        x, y = Tensor(0x10000), Tensor(0x20000)
        before = len(launches())
        fused = k[(4,)](x, y, 1000, 2.0, BLOCK=256)
        unfused = k[(4,)](x, y, 1000, 2.0, BLOCK=256, enable_fp_fusion=False)
        self.assertEqual(len(launches()) - before, 2)
        self.assertIn("fma.rn.f32", fused.asm["ptx"])
        self.assertNotIn("fma.rn.f32", unfused.asm["ptx"])
        self.assertIn("mul.rn.f32", unfused.asm["ptx"])
        # warmup keys the option too.
        w = k.warmup(x, y, 1000, 2.0, BLOCK=256, grid=(4,),
                     enable_fp_fusion=False)
        self.assertNotIn("fma.rn.f32", w.asm["ptx"])
        self.assertIn("fma.rn.f32", k.warmup(x, y, 1000, 2.0, BLOCK=256,
                                             grid=(4,)).asm["ptx"])
        # knobs.language.default_fp_fusion is the default of both.
        from triton import knobs
        knobs.language.default_fp_fusion = False
        try:
            self.assertNotIn("fma.rn.f32", k.warmup(
                x, y, 1000, 2.0, BLOCK=256, grid=(4,)).asm["ptx"])
            h = k[(4,)](x, y, 1000, 2.0, BLOCK=256)
            self.assertNotIn("fma.rn.f32", h.asm["ptx"])
        finally:
            knobs.language.default_fp_fusion = True
        h = k[(4,)](x, y, 1000, 2.0, BLOCK=256)
        self.assertIn("fma.rn.f32", h.asm["ptx"])


GENERATED = '''import triton
import triton.language as tl
from dropin import helpers as hh


@triton.jit
def generated_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, hh.twice(SCALAR_FN(x)), mask=offs < n)
'''

SCALAR = '''import triton
import triton.language as tl


@triton.jit
def add_seven(x):
    return x + 7
'''


class GeneratedModuleTest(unittest.TestCase):
    def load(self, directory, name, text):
        path = os.path.join(directory, name + ".py")
        with open(path, "w") as f:
            f.write(text)
        spec = importlib.util.spec_from_file_location("_gen_" + name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # never in sys.modules
        return module

    def test_injected_scalar_function_and_package_helpers(self):
        with tempfile.TemporaryDirectory() as d:
            scalar = self.load(d, "scalar_src", SCALAR)
            gen = self.load(d, "generated", GENERATED)
            gen.__dict__["SCALAR_FN"] = scalar.add_seven
            x, out = Tensor(0x10000), Tensor(0x20000)
            before = len(launches())
            gen.generated_kernel[(4,)](x, out, 1000, BLOCK=256)
            self.assertEqual(len(launches()) - before, 1)
            ptx = gen.generated_kernel.warmup(x, out, 1000, BLOCK=256,
                                              grid=(4,)).asm["ptx"]
            self.assertIn("0f40E00000", ptx)  # + 7.0, the injected function

    def test_generated_module_with_copied_globals(self):
        # FlagGems' pointwise_dynamic copies the scalar function's globals,
        # __file__ included, into the generated module: the scalar file's
        # own host-chosen names must still reach the compiler.
        from dropin import scalar_ops
        with tempfile.TemporaryDirectory() as d:
            gen = self.load(d, "generated3", GENERATED)
            gen.__dict__.update(scalar_ops.pow_and_finite.__globals__)
            gen.__dict__["SCALAR_FN"] = scalar_ops.pow_and_finite
            x, out = Tensor(0x10000), Tensor(0x20000)
            gen.generated_kernel[(4,)](x, out, 1000, BLOCK=256)
            ptx = gen.generated_kernel.warmup(x, out, 1000, BLOCK=256,
                                              grid=(4,)).asm["ptx"]
            self.assertIn("0f40400000", ptx)  # _pow(x, 3.0)
            self.assertIn("0f7F800000", ptx)  # finitef: |x| != inf
            self.assertIn("div.rn.", ptx)  # libdevice's div_rn ...
            self.assertNotIn("cvt.rmi", ptx)  # ... not the def's floor

    def test_injected_name_that_is_no_function(self):
        with tempfile.TemporaryDirectory() as d:
            gen = self.load(d, "generated2", GENERATED)
            gen.__dict__["SCALAR_FN"] = object()  # no spelling: unknown
            with self.assertRaises(triton.CompilationError) as cm:
                gen.generated_kernel[(4,)](Tensor(0x10000), Tensor(0x20000),
                                           1000, BLOCK=256)
            self.assertIn("name `SCALAR_FN` is not defined", str(cm.exception))



class CallFormTest(unittest.TestCase):
    def test_kernel_made_by_calling_jit_and_heuristics(self):
        # `f = triton.jit(f)` is read as `@triton.jit` by the compiler too
        # (it compiles the function from its file): before, "`bump` is not a
        # @triton.jit function".
        x = Tensor(0x10000)
        before = len(launches())
        call_form.bump[(1,)](x, 100, BLOCK=128)
        call_form.bump[(1,)](x, 101, BLOCK=128)
        runs = launches()[before:]
        self.assertEqual([r["kernel"] for r in runs], ["bump", "bump"])
        # The heuristics wrapper ran for each launch (Python applies it).
        self.assertEqual(call_form.SEEN, [100, 101])


class AnnotatedScalarTest(unittest.TestCase):
    def test_int64_annotation_types_a_small_int(self):
        # Triton takes `stride: tl.int64` as the parameter's type: a 64-bit
        # parameter and product even for 3000 (Kiln typed it i32 by value).
        x = Tensor(0x10000)
        h = annotated.offset_copy[(2,)](x, 3000, BLOCK=128)
        ptx = h.asm["ptx"]
        self.assertIn(".param .u64 offset_copy_param_1", ptx)
        self.assertIn("mul.lo.s64", ptx)
        self.assertEqual(launches()[-1]["params"][1], 3000)
        annotated.offset_copy[(2,)](x, 2**33, BLOCK=128)
        self.assertEqual(launches()[-1]["params"][1], 2**33)


if __name__ == "__main__":
    unittest.main()
