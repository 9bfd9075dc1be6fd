"""Kernels defined inside functions (closures over the enclosing function's
variables) and kernels whose source is replaced in memory, under the
drop-in with the stand-in driver (no GPU, no torch)."""
import os
import re
import unittest

from test_dropin import Tensor, launches

import triton  # noqa: E402  (the drop-in, installed by test_dropin)
from dropin import constexpr_fn, nested  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NESTED = os.path.join(HERE, "dropin", "nested.py")


def _line_of(text):
    with open(NESTED) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i, line.index(text) + 1
    raise AssertionError(text)


def _f32_hex(value):
    import struct
    return "0f%08X" % struct.unpack("<I", struct.pack("<f", value))[0]


class NestedKernelTest(unittest.TestCase):
    def setUp(self):
        self.x, self.out = Tensor(0x10000), Tensor(0x20000, "torch.float16")

    def test_closure_values_and_captured_helper(self):
        # Two kernels from one factory with different captured values: each
        # compiles with its own (the helper `combine` reads SCALE too, and
        # the enclosing SCALE shadows the module's).
        k3 = nested.make_scaled(3.5, 128)
        k5 = nested.make_scaled(5.25, 64)
        ptx3 = k3.warmup(self.x, self.out, 1000, grid=(8,)).asm["ptx"]
        ptx5 = k5.warmup(self.x, self.out, 1000, grid=(16,)).asm["ptx"]
        self.assertIn(_f32_hex(3.5), ptx3)
        self.assertIn(_f32_hex(5.25), ptx5)
        self.assertNotIn(_f32_hex(100.0), ptx3)  # not the module's SCALE
        self.assertIn("cvt.rn.f16.f32", ptx3)    # OUT_TY = tl.float16
        before = len(launches())
        k3[(8,)](self.x, self.out, 1000)
        k5[(16,)](self.x, self.out, 1000)
        got = launches()[before:]
        self.assertEqual([g["kernel"] for g in got], ["scaled", "scaled"])
        self.assertEqual([g["grid"] for g in got], [(8, 1, 1), (16, 1, 1)])
        self.assertEqual(got[0]["block"], 128)  # num_warps 4

    def test_captured_list_is_a_shape(self):
        ptx = nested.make_halves(256).warmup(self.x, self.x,
                                             grid=(1,)).asm["ptx"]
        self.assertIn(".entry halves_sum", ptx)

    def test_error_names_the_place_in_the_file(self):
        k = nested.make_broken()
        with self.assertRaises(triton.CompilationError) as ctx:
            k[(1,)](self.x)
        line, col = _line_of("tl.no_such_builtin")
        col += len("tl.")
        message = str(ctx.exception)
        self.assertRegex(message, re.escape("%s:%d:" % (NESTED, line)))
        found = re.search(re.escape(NESTED) + r":%d:(\d+)" % line, message)
        self.assertIn(int(found.group(1)), (col - len("tl."), col))

    def test_error_names_a_captured_value_without_spelling(self):
        k = nested.make_capturing_an_object()
        with self.assertRaises(triton.CompilationError) as ctx:
            k[(1,)](self.x)
        message = str(ctx.exception)
        line, col = _line_of("tl.store(x_ptr, scale)")
        self.assertIn("%s:%d:%d: error: name `scale` is not defined"
                      % (NESTED, line, col + len("tl.store(x_ptr, ")), message)
        self.assertIn("(`scale` is captured from the function enclosing the "
                      "kernel: a object, which is no compile-time value", message)

    def test_def_inside_a_module_level_block(self):
        ptx = nested.in_block.warmup(self.x, grid=(1,)).asm["ptx"]
        bits = int(_f32_hex(200.0)[2:], 16)  # stored as its bits here
        self.assertTrue(_f32_hex(200.0) in ptx or str(bits) in ptx, ptx)

    def test_replaced_source(self):
        # Triton's tests: JITFunction(fn) and _unsafe_update_src.
        k = triton.JITFunction(nested.template.fn)
        self.assertTrue(k.src.startswith("def template(x_ptr, out_ptr"))
        k._unsafe_update_src(k.src.replace("GENERATE_HERE", "x * 7.0"))
        ptx = k.warmup(self.x, self.x, BLOCK=128, grid=(1,)).asm["ptx"]
        self.assertIn(_f32_hex(7.0), ptx)
        k._unsafe_update_src(k.src.replace("x * 7.0", "x + 9.0"))
        ptx = k.warmup(self.x, self.x, BLOCK=128, grid=(1,)).asm["ptx"]
        self.assertIn(_f32_hex(9.0), ptx)
        self.assertNotIn(_f32_hex(7.0), ptx)
        # The template itself is untouched.
        with self.assertRaises(triton.CompilationError) as ctx:
            nested.template[(1,)](self.x, self.x, BLOCK=128)
        self.assertIn("GENERATE_HERE", str(ctx.exception))


    def test_kernels_generated_from_text(self):
        # triton_kernels' specialize(): a template's code object with new
        # globals and a replaced source; constexprs fixed in the text, a
        # generated helper, the repr naming the compiled kernel.
        from dropin import derived
        k = derived.doubled
        self.assertEqual(k.repr(None), "act_kernel_bound")
        self.assertEqual(list(k.get_capture_scope()["double"].arg_names), ["x"])
        compiled = k.warmup(self.x, self.out, 100, BLOCK=128, grid=(1,))
        ptx = compiled.asm["ptx"]
        self.assertEqual(compiled.name, "act_kernel_bound")
        self.assertRegex(ptx, r"add\.f32\s+(%r\d+), (%r\d+), \2;")  # x + x
        self.assertIn(_f32_hex(3.0), ptx)                           # SCALE
        before = len(launches())
        k[(1,)](self.x, self.out, 100, BLOCK=128)
        self.assertEqual(launches()[before]["kernel"], "act_kernel")
        ptx = derived.quadrupled.warmup(self.x, self.out, 100, BLOCK=128,
                                        grid=(1,)).asm["ptx"]
        self.assertEqual(len(re.findall(r"add\.f32", ptx)), 2)
        with self.assertRaises(triton.CompilationError) as ctx:
            derived.calls_host[(1,)](self.x)
        message = str(ctx.exception)
        self.assertIn("calls_host.generated.py:6:17: error: name `host_fn` is not defined",
                      message)
        self.assertIn("(`host_fn` is a global of the generated kernel: a "
                      "builtin_function_or_method, which is no compile-time value)",
                      message)


class ConstexprFunctionTest(unittest.TestCase):
    def test_host_call_and_kernel_call(self):
        import math
        self.assertIsInstance(constexpr_fn.log_odds,
                              triton.constexpr_function)
        # From host code it is the function (constexprs unwrapped).
        self.assertAlmostEqual(constexpr_fn.log_odds(0.25), math.log(3.0))
        self.assertAlmostEqual(
            constexpr_fn.log_odds(triton.language.constexpr(0.25)),
            math.log(3.0))
        # In a kernel Kiln's compiler evaluates it: log(3) as a constant.
        x = Tensor(0x10000)
        ptx = constexpr_fn.scale_by_log_odds.warmup(
            x, x, P=0.25, BLOCK=128, grid=(1,)).asm["ptx"]
        self.assertIn(_f32_hex(math.log(3.0)), ptx)


class ReinterpretTest(unittest.TestCase):
    def test_reinterpret_specializes_on_the_tl_dtype(self):
        tl = triton.language
        raw = Tensor(0x30000, "torch.uint8")
        fp8 = triton.reinterpret(raw, tl.float8e5)
        self.assertIsInstance(fp8, triton.TensorWrapper)
        self.assertEqual(fp8.data_ptr(), raw.data_ptr())
        self.assertIs(triton.reinterpret(fp8, raw.dtype), raw)
        out = Tensor(0x40000)
        ptx = nested.widen.warmup(fp8, out, BLOCK=128, grid=(1,)).asm["ptx"]
        self.assertIn("e5m2", ptx)  # fp8e5 -> fp32 conversions
        before = len(launches())
        nested.widen[(1,)](fp8, out, BLOCK=128)
        nested.widen[(1,)](raw, out, BLOCK=128)  # another specialization
        got = launches()[before:]
        self.assertEqual([g["params"][0] for g in got], [0x30000, 0x30000])
        self.assertEqual(len(nested.widen.cache[0]), 2)
        with self.assertRaises(TypeError):
            triton.reinterpret(3, tl.float8e5)


class KnobsTest(unittest.TestCase):
    def test_knobs_are_settable_and_autotuning_print_is_honoured(self):
        import contextlib
        import io
        from dropin import kernels
        knobs = triton.knobs
        self.assertIs(__import__("triton.knobs").knobs, knobs)
        saved = knobs.autotuning.print
        knobs.compilation.always_compile = True  # recorded only
        self.assertIn("always_compile=True", repr(knobs.compilation))
        # No ptxas: the driver's CUDA version, else the PTX ISA's release.
        self.assertRegex(knobs.nvidia.ptxas.version, r"^1[2-9]\.\d$")
        ptxas = knobs.nvidia.ptxas.copy()
        ptxas.version = "12.8"
        self.assertEqual(ptxas.version, "12.8")
        # copy().reset(): Triton's test fixtures start from the defaults.
        fresh = knobs.compilation.copy().reset()
        self.assertFalse(fresh.always_compile)
        self.assertTrue(knobs.compilation.always_compile)
        self.assertEqual(fresh.knob_descriptors, {})
        from triton.runtime._allocation import NullAllocator
        with self.assertRaisesRegex(RuntimeError, "no allocator was set"):
            NullAllocator()(16, 16, None)
        self.assertEqual(str(triton.language.str_to_ty("*fp16", None)),
                         "pointer<fp16>")
        try:
            knobs.autotuning.print = True
            x, out = Tensor(0x50000), Tensor(0x60000)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                kernels.tuned_copy[(4,)](x, out, 4097)  # a new tuning key
            self.assertIn("Triton autotuning for function tuned_copy",
                          buf.getvalue())
        finally:
            knobs.autotuning.print = saved
            knobs.compilation.always_compile = False


if __name__ == "__main__":
    unittest.main()
