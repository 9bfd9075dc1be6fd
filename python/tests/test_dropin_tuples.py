"""Tuple arguments through Kiln's drop-in `triton` (stand-in driver and
tensors; no GPU, no torch): a tuple is specialized element by element as
Triton does (dtypes, 16-byte alignment, integers equal to 1 and None become
constants), its runtime elements are launched as consecutive parameters,
and bad elements are named. The kernels are dropin/tuples.py."""
import collections
import ctypes
import os
import unittest

from kilntest_common import FakeTensor, fake_launches

import kiln

kiln.install()

import triton  # noqa: E402
from dropin import tuples  # noqa: E402

_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])


def last_launch():
    return fake_launches(_fake)[-1]


def f32(ptr):
    return FakeTensor(ptr, "torch.float32", 1024, None, 4)


class TupleLaunchTest(unittest.TestCase):
    def test_tuple_of_tensors_and_scalars(self):
        k = tuples.mix_sources
        out = f32(0x100000)
        srcs = (f32(0x200000), f32(0x300000), f32(0x400000))
        before = _fake.kilnFakeLaunchCount()
        k[(4,)](out, srcs, (0.5, 2.0, 1), 1000, L=3, BLOCK=256)
        launch = last_launch()
        self.assertEqual(launch["kernel"], "mix_sources")
        # The weights' integer 1 is the constexpr 1: no parameter for it.
        f = [ctypes.c_uint32.from_buffer_copy(ctypes.c_float(v)).value
             for v in (0.5, 2.0)]
        self.assertEqual(launch["params"],
                         [0x100000, 0x200000, 0x300000, 0x400000] + f + [1000])
        # Same structure and classes: the same specialization, new values.
        k[(4,)](out, (f32(0x500000), f32(0x600000), f32(0x700000)),
                (0.25, 4.0, 1), 512, L=3, BLOCK=256)
        self.assertEqual(last_launch()["params"][:4],
                         [0x100000, 0x500000, 0x600000, 0x700000])
        # Another length is another specialization, and launches too.
        k[(4,)](out, srcs[:2], (0.5, 3.0), 1000, L=2, BLOCK=256)
        self.assertEqual(len(last_launch()["params"]), 1 + 2 + 2 + 1)
        # One-element tuples: one parameter each (the compiled kernel's
        # parameters come from the flattened signature).
        k[(4,)](out, (f32(0x500000),), (0.75,), 1000, L=1, BLOCK=256)
        f = ctypes.c_uint32.from_buffer_copy(ctypes.c_float(0.75)).value
        self.assertEqual(last_launch()["params"],
                         [0x100000, 0x500000, f, 1000])
        self.assertEqual(_fake.kilnFakeLaunchCount(), before + 4)

    def test_nested_tuple_with_none(self):
        k = tuples.pick_rows
        out = f32(0x100000)
        k[(2,)](out, ((f32(0x200000), f32(0x300000)), 3, None), 100,
                BLOCK=64)
        self.assertEqual(last_launch()["params"],
                         [0x100000, 0x200000, 0x300000, 3, 100])
        # A stride of 1 is the constexpr 1 inside a tuple as well.
        k[(2,)](out, ((f32(0x200000), f32(0x300000)), 1, None), 100,
                BLOCK=64)
        self.assertEqual(last_launch()["params"],
                         [0x100000, 0x200000, 0x300000, 100])

    def test_constexpr_elements_and_constexpr_tuples(self):
        # tl.constexpr elements are compile-time: no parameter, and another
        # value is another specialization (not a runtime int's).
        out = f32(0x100000)
        shape = tuple(triton.language.constexpr(v) for v in (16, 32))
        tuples.fill_block[(1,)](out, (32, 3), shape)
        self.assertEqual(last_launch()["params"], [0x100000, 32, 3])
        n = _fake.kilnFakeLaunchCount()
        tuples.fill_block[(1,)](out, (64, 5), (triton.language.constexpr(32),
                                              triton.language.constexpr(16)))
        self.assertEqual(_fake.kilnFakeLaunchCount(), n + 1)
        self.assertEqual(last_launch()["params"], [0x100000, 64, 5])

        class Size(tuple):  # torch.Size: a tuple subclass
            pass
        tuples.fill_shape[(1,)](out, Size((8, 3)))
        self.assertEqual(last_launch()["params"], [0x100000])

    def test_compile_only_shows_the_flattened_signature(self):
        c = kiln.jit(tuples.__file__).mix_sources.compile(
            f32(0x100000), (f32(0x200000), f32(0x300008)), (1, 2.0), 64,
            L=2, BLOCK=128)
        params = [(p["name"], p["type"]) for p in c.info["params"]]
        self.assertEqual(params, [("out", "*fp32:16"), ("srcs.0", "*fp32:16"),
                                  ("srcs.1", "*fp32"), ("weights.1", "fp32"),
                                  ("N", "i32:16")])

    def test_bad_elements_are_named(self):
        k = tuples.mix_sources
        out = f32(0x100000)
        with self.assertRaises(kiln.LaunchError) as cm:
            k[(1,)](out, (f32(0x200000), "x"), (1.0, 1.0), 10, L=2,
                    BLOCK=128)
        self.assertEqual(
            str(cm.exception),
            "kernel `mix_sources`: argument #2 `srcs`, element 1: cannot "
            "pass a value of type str (expected a tensor, an object with "
            "__cuda_array_interface__, int, float, bool, None or a tuple of "
            "those)")
        with self.assertRaises(kiln.CompilationError) as cm:
            k[(1,)](out, (f32(0x200000),), (1.0, 1.0), 10, L=2, BLOCK=128)
        # Where the helper indexes it.
        self.assertIn("tuples.py:12:17: error:", str(cm.exception))
        self.assertIn("tuple index 1 out of range for a tuple of 1",
                      str(cm.exception))


class NamedTupleTest(unittest.TestCase):
    def test_fields_are_read_by_name(self):
        k = tuples.affine_copy
        src = tuples.Strided(f32(0x200000), 1000, 1)
        dst = tuples.Strided(f32(0x300000), 1000, 2)
        k[(4,)](src, dst, tuples.Affine(2.0, 0.5), BLOCK=256)
        f = [ctypes.c_uint32.from_buffer_copy(ctypes.c_float(v)).value
             for v in (2.0, 0.5)]
        # Elements in order; the stride 1 is the constexpr 1.
        self.assertEqual(last_launch()["params"],
                         [0x200000, 1000, 0x300000, 1000, 2] + f)
        c = kiln.jit(tuples.__file__).affine_copy.compile(
            src, dst, tuples.Affine(2.0, 0.5), BLOCK=256)
        params = [(p["name"], p["type"]) for p in c.info["params"]]
        self.assertEqual(params, [
            ("src.0", "*fp32:16"), ("src.1", "i32"), ("dst.0", "*fp32:16"),
            ("dst.1", "i32"), ("dst.2", "i32"), ("coef.0", "fp32"),
            ("coef.1", "fp32")])
        self.assertEqual(c.info["constexprs"], {"BLOCK": "256", "src.2": "1"})

    def test_another_class_is_another_specialization(self):
        k = tuples.affine_copy
        other = collections.namedtuple("Strided2", ["ptr", "n", "stride"])
        src = tuples.Strided(f32(0x200000), 1000, 1)
        k[(1,)](src, tuples.Strided(f32(0x300000), 64, 1),
                tuples.Affine(1.0, 0.0), BLOCK=64)
        k[(1,)](src, other(f32(0x300000), 64, 1), tuples.Affine(1.0, 0.0),
                BLOCK=64)
        self.assertEqual(last_launch()["kernel"], "affine_copy")
        # A plain tuple has no fields: the kernel's `dst.ptr` does not exist.
        with self.assertRaises(kiln.CompilationError) as cm:
            k[(1,)](src, (f32(0x300000), 64, 1), tuples.Affine(1.0, 0.0),
                    BLOCK=64)
        self.assertIn("unknown attribute `t.ptr`: a plain tuple of 3 "
                      "element(s) has no attributes", str(cm.exception))

    def test_unknown_field_is_named(self):
        Wrong = collections.namedtuple("Wrong", ["ptr", "count", "stride"])
        with self.assertRaises(kiln.CompilationError) as cm:
            tuples.affine_copy[(1,)](
                Wrong(f32(0x200000), 10, 1), Wrong(f32(0x300000), 10, 1),
                tuples.Affine(1.0, 0.0), BLOCK=64)
        self.assertIn("the namedtuple has no field `n` (its fields: ptr, "
                      "count, stride)", str(cm.exception))


class FunctionArgumentTest(unittest.TestCase):
    def test_jit_functions_as_constexprs(self):
        from dropin import helpers
        x = f32(0x200000)
        k = tuples.apply_fn
        ptx = k.warmup(x, 1000, FN=tuples.leaky, ARG=0.25, BLOCK=128,
                       grid=(8,)).asm["ptx"]
        self.assertIn("0f3E800000", ptx)  # the slope 0.25
        k[(8,)](x, 1000, FN=tuples.leaky, ARG=0.25, BLOCK=128)
        self.assertEqual(last_launch()["kernel"], "apply_fn")
        # Another function is another specialization.
        ptx2 = k.warmup(x, 1000, FN=helpers.scale_by, ARG=3.0, BLOCK=128,
                        grid=(8,)).asm["ptx"]
        self.assertNotEqual(ptx, ptx2)
        self.assertIn("0f40400000", ptx2)  # 3.0
        # A tl function passes too (spelled triton.language.maximum).
        ptx3 = k.warmup(x, 1000, FN=triton.language.maximum, ARG=0.5,
                        BLOCK=128, grid=(8,)).asm["ptx"]
        self.assertIn("max.f32", ptx3)

    def test_function_for_an_unannotated_parameter(self):
        # Triton specializes a JITFunction argument even where the parameter
        # is not tl.constexpr: the function takes no parameter slot.
        x = f32(0x200000)
        k = tuples.apply_fn_plain
        k[(8,)](x, 1000, tuples.leaky, BLOCK=128)
        self.assertEqual(last_launch()["params"], [0x200000, 1000])
        leaky = k.warmup(x, 1000, tuples.leaky, BLOCK=128, grid=(8,)).asm["ptx"]
        self.assertNotIn("max.f32", leaky)
        self.assertIn("setp.ge.f32", leaky)
        k[(8,)](x, 1000, triton.language.maximum, BLOCK=128)
        self.assertEqual(last_launch()["params"], [0x200000, 1000])
        most = k.warmup(x, 1000, triton.language.maximum, BLOCK=128,
                        grid=(8,)).asm["ptx"]
        self.assertIn("max.f32", most)

    def test_closure_namedtuple_with_a_function(self):
        x = f32(0x200000)
        k = tuples.apply_closure
        c = tuples.Closure(tuples.affine, (3.0, 1.5))
        k[(4,)](x, 1000, c, BLOCK=256)
        f = [ctypes.c_uint32.from_buffer_copy(ctypes.c_float(v)).value
             for v in (3.0, 1.5)]
        # The function takes no parameter; the captured values do.
        self.assertEqual(last_launch()["params"], [0x200000, 1000] + f)
        ptx = k.warmup(x, 1000, c, BLOCK=256, grid=(4,)).asm["ptx"]
        self.assertIn("fma.rn.f32", ptx)
        # Another function: another specialization, the new one launched.
        k[(4,)](x, 1000, tuples.Closure(triton.language.maximum, (0.0,)),
                BLOCK=256)
        self.assertEqual(last_launch()["params"], [0x200000, 1000, 0])
        ptx = k.warmup(x, 1000, tuples.Closure(triton.language.maximum, (0.0,)),
                       BLOCK=256, grid=(4,)).asm["ptx"]
        self.assertIn("max.f32", ptx)

    def test_a_function_without_source_is_refused(self):
        fn = triton.jit(eval("lambda x, a: x"))
        with self.assertRaises(kiln.LaunchError) as cm:
            tuples.apply_fn[(1,)](f32(0x200000), 10, FN=fn, ARG=1, BLOCK=64)
        self.assertIn("constexpr `FN`: the @triton.jit function", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
