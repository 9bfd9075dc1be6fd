"""The kiln package against the stand-in CUDA driver (KILN_FAKE_CUDA): no GPU
and no torch needed. KILN_CUDA_DRIVER must point at the same library."""
import ctypes
import os
import tempfile
import unittest

from kilntest_common import (ADD_SOURCE, BAD_BODY_SOURCE, NONE_SOURCE,
                             TUNED_SOURCE, Device, FakeCudaArray, FakeTensor,
                             fake_launches)

import kiln

_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])


def launches():
    return fake_launches(_fake)


def last_launch():
    return launches()[-1]


def f32_bits(v):
    return ctypes.c_uint32.from_buffer(ctypes.c_float(v)).value


class LaunchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mod = kiln.jit(source=ADD_SOURCE, filename="add.py")

    def setUp(self):
        self.x = FakeTensor(0x10000)
        self.y = FakeTensor(0x20000)
        self.out = FakeTensor(0x30000)

    def test_device(self):
        self.assertEqual(kiln.device_count(), 1)
        self.assertEqual(kiln.device_name(0), "Kiln Fake GPU")
        self.assertEqual(kiln.device_arch(0), (9, 0, "sm_90"))
        with self.assertRaisesRegex(kiln.KilnError,
                                    "CUDA device 3 does not exist"):
            kiln.device_name(3)

    def test_launch_tuple_grid(self):
        k = self.mod.add_kernel
        before = len(launches())
        k[(4,)](self.x, self.y, self.out, 1000, BLOCK=256)
        self.assertEqual(len(launches()), before + 1)
        l = last_launch()
        self.assertEqual(l["kernel"], "add_kernel")
        self.assertEqual(l["grid"], (4, 1, 1))
        self.assertEqual(l["block"], 128)  # num_warps 4
        self.assertEqual(l["stream"], 0)   # no torch: the default stream
        self.assertEqual(l["params"][:4], [0x10000, 0x20000, 0x30000, 1000])
        self.assertEqual(k.last_meta(), {"BLOCK": "256", "SCALE": "2",
                                         "num_stages": "3", "num_warps": "4"})

    def test_grid_callable_and_options(self):
        k = self.mod["add_kernel"]
        seen = {}

        def grid(meta):
            seen.update(meta)
            return (kiln.cdiv(meta["n"], meta["BLOCK"]), 2)

        k[grid](self.x, self.y, self.out, 1000, BLOCK=128, num_warps=8,
                num_stages=2)
        l = last_launch()
        self.assertEqual(l["grid"], (8, 2, 1))
        self.assertEqual(l["block"], 256)
        self.assertEqual(seen["BLOCK"], 128)
        self.assertEqual(seen["SCALE"], 2)  # the default
        self.assertEqual(seen["n"], 1000)
        self.assertIs(seen["x_ptr"], self.x)
        self.assertEqual(seen["num_warps"], 8)
        self.assertEqual(seen["num_stages"], 2)

    def test_grid_callable_through_the_runtime(self):
        # Decorated kernels (autotune/heuristics) have the runtime call the
        # grid with the config it chose; force that path on a plain kernel.
        k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel
        self.assertFalse(k.decorated)
        k.decorated = True
        seen = {}

        def grid(meta):
            seen.update(meta)
            return (kiln.cdiv(meta["n"], meta["BLOCK"]),)

        k[grid](self.x, self.y, self.out, 1000, BLOCK=128, num_warps=2)
        l = last_launch()
        self.assertEqual((l["grid"], l["block"]), ((8, 1, 1), 64))
        self.assertEqual(l["params"][:4], [0x10000, 0x20000, 0x30000, 1000])
        self.assertEqual((seen["BLOCK"], seen["SCALE"], seen["n"]),
                         (128, 2, 1000))
        self.assertEqual((seen["num_warps"], seen["num_stages"]), (2, 3))
        self.assertIs(seen["x_ptr"], self.x)
        self.assertEqual(k.last_meta()["num_warps"], "2")

        def broken(meta):
            raise ZeroDivisionError("grid broke")

        before = len(launches())
        with self.assertRaisesRegex(ZeroDivisionError, "grid broke"):
            k[broken](self.x, self.y, self.out, 1000, BLOCK=128)
        self.assertEqual(len(launches()), before)

    def test_keyword_runtime_args(self):
        k = self.mod.add_kernel
        k[(2, 1, 1)](self.x, self.y, n=77, out_ptr=self.out, BLOCK=64)
        self.assertEqual(last_launch()["params"][:4],
                         [0x10000, 0x20000, 0x30000, 77])

    def test_hit_path_reuses_the_launcher(self):
        k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel
        for n in (10, 20, 30):
            k[(1,)](self.x, self.y, self.out, n, BLOCK=64)
        self.assertEqual(len(k._launches), 1)
        self.assertEqual(last_launch()["params"][3], 30)
        k[(1,)](self.x, self.y, self.out, 1 << 40, BLOCK=64)  # i64 now
        self.assertEqual(len(k._launches), 2)
        self.assertEqual(last_launch()["params"][3], 1 << 40)
        k[(1,)](self.x, self.y, self.out, 5, BLOCK=128)
        self.assertEqual(len(k._launches), 3)

    def test_scalars(self):
        k = self.mod.scale_kernel
        k[(1,)](self.out, 1.5, 64, True, BLOCK=64)
        p = last_launch()["params"]
        self.assertEqual(p[1], f32_bits(1.5))
        self.assertEqual(p[2:4], [64, 1])
        k[(1,)](self.out, 0.25, 64, False, BLOCK=64)
        p = last_launch()["params"]
        self.assertEqual((p[1], p[3]), (f32_bits(0.25), 0))

    def test_other_number_types(self):
        import fractions

        class MyInt(int):
            pass

        k = self.mod.scale_kernel
        k[(1,)](self.out, fractions.Fraction(1, 4), MyInt(48), 1, BLOCK=64)
        p = last_launch()["params"]
        # The int flag equal to 1 is the constexpr 1: not passed.
        self.assertEqual(p[1:], [f32_bits(0.25), 48])
        k[(1,)](self.out, fractions.Fraction(1, 4), MyInt(48), 2, BLOCK=64)
        p = last_launch()["params"]
        self.assertEqual(p[1:], [f32_bits(0.25), 48, 2])

    def test_jit_of_a_function(self):
        # What a @triton.jit object looks like: the def, kept in `.fn`.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "kernels.py")
            with open(path, "w") as f:
                f.write(ADD_SOURCE)
            namespace = {}
            exec(compile("def add_kernel(): pass", path, "exec"), namespace)

            class JITFunction:
                fn = namespace["add_kernel"]

            class Autotuner:
                fn = JITFunction()

            k = kiln.jit(Autotuner())
            self.assertEqual(k.name, "add_kernel")
            k[(2,)](self.x, self.y, self.out, 5, BLOCK=64)
            self.assertEqual(last_launch()["params"][3], 5)
            self.assertIs(kiln.jit(JITFunction()), k)  # one Module per file

    def test_none_argument(self):
        k = kiln.jit(source=NONE_SOURCE, filename="none.py").k
        try:
            k[(1,)](self.out, None, 16, BLOCK=64)
        except kiln.CompilationError as e:
            if "signature entry must be a type" not in str(e):
                raise
            self.skipTest("this build's frontend cannot specialize on None")
        # The None parameter became a constexpr: no slot in the launch.
        self.assertEqual(last_launch()["params"], [0x30000, 16])
        k[(1,)](self.out, self.x, 16, BLOCK=64)
        self.assertEqual(last_launch()["params"], [0x30000, 0x10000, 16])
        self.assertEqual(len(k._launches), 2)

    def test_cuda_array_interface(self):
        k = self.mod.add_kernel
        a = FakeCudaArray(0x40000)
        k[(3,)](a, FakeCudaArray(0x50000), FakeCudaArray(0x60000), 9,
                BLOCK=64)
        self.assertEqual(last_launch()["params"][:4],
                         [0x40000, 0x50000, 0x60000, 9])


class AutotuneTest(unittest.TestCase):
    """@triton.autotune through the runtime's tuner (stand-in event timing:
    the 128-thread config is made the fastest)."""

    def test_autotuned_kernel_launches_the_fastest_config(self):
        try:
            k = kiln.jit(source=TUNED_SOURCE, filename="tuned.py").tuned_add
        except kiln.CompilationError as e:  # before the full-grammar parser
            self.skipTest("this build's frontend cannot read the decorator: "
                          + str(e).splitlines()[0])
        if not k.decorated:
            self.skipTest("this build's frontend does not evaluate "
                          "decorators yet")
        _fake.kilnFakeSetKernelTime.argtypes = [ctypes.c_char_p,
                                                ctypes.c_uint, ctypes.c_float]
        _fake.kilnFakeSetKernelTime(b"tuned_add", 128, 0.25)
        x, y, out = (FakeTensor(p) for p in (0x10000, 0x20000, 0x30000))
        grids = []

        def grid(meta):
            grids.append((meta["BLOCK"], meta["num_warps"]))
            return (kiln.cdiv(meta["n"], meta["BLOCK"]),)

        k[grid](x, y, out, 1000)
        l = last_launch()
        self.assertEqual((l["kernel"], l["block"], l["grid"]),
                         ("tuned_add", 128, (8, 1, 1)))
        self.assertEqual(grids[-1], (128, 4))
        self.assertEqual(k.last_meta()["BLOCK"], "128")
        # A tuple grid: the chosen config, through the packed launcher.
        k[(3,)](x, y, out, 1000)
        l = last_launch()
        self.assertEqual((l["block"], l["grid"]), (128, (3, 1, 1)))
        self.assertEqual(k.last_meta()["num_warps"], "4")
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "`BLOCK` is set by the launch and by "
                                    "the autotune config"):
            k[(3,)](x, y, out, 1000, BLOCK=64)


class SpecializationTest(unittest.TestCase):
    """Triton's rules, seen in the KernelInfo of compile-only results."""

    @classmethod
    def setUpClass(cls):
        cls.k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel

    def types(self, *args, **kwargs):
        kwargs.setdefault("BLOCK", 64)
        c = self.k.compile(*args, **kwargs)
        return [p["type"] for p in c.info["params"]]

    def test_alignment_and_integer_width(self):
        x, y = FakeTensor(0x10000), FakeTensor(0x10004)
        self.assertEqual(self.types(x, x, x, 1024),
                         ["*fp32:16", "*fp32:16", "*fp32:16", "i32:16"])
        self.assertEqual(self.types(x, y, x, 1000),
                         ["*fp32:16", "*fp32", "*fp32:16", "i32"])
        self.assertEqual(self.types(x, x, x, 2 ** 31)[3], "i64:16")
        self.assertEqual(self.types(x, x, x, -2 ** 31)[3], "i32:16")
        self.assertEqual(self.types(x, x, x, 2 ** 31 + 1)[3], "i64")

    def test_int_equal_to_one_is_a_constexpr(self):
        # Triton's rule: an int equal to 1 becomes the constexpr 1 (part of
        # the key, like :16); the kernel has no such parameter. Bools are
        # never specialized on their value.
        x = FakeTensor(0x10000)
        c = self.k.compile(x, x, x, 1, BLOCK=64)
        self.assertEqual([p["name"] for p in c.info["params"]],
                         ["x_ptr", "y_ptr", "out_ptr"])
        self.assertEqual(c.info["constexprs"],
                         {"BLOCK": "64", "SCALE": "2", "n": "1"})
        self.assertEqual(self.types(x, x, x, 2)[3], "i32")
        self.assertEqual(self.types(x, x, x, 0)[3], "i32:16")
        self.assertEqual(self.types(x, x, x, -1)[3], "i32")
        self.assertEqual(self.types(x, x, x, True)[3], "i32")
        self.assertEqual(self.types(x, x, x, False)[3], "i32")

    def test_dtypes(self):
        h = FakeTensor(0x10000, dtype="torch.float16", element_size=2)
        b = FakeTensor(0x10000, dtype="torch.bfloat16", element_size=2)
        x = FakeTensor(0x10000)
        self.assertEqual(self.types(h, b, x, 16)[:3],
                         ["*fp16:16", "*bf16:16", "*fp32:16"])

    def test_constexprs_and_options(self):
        x = FakeTensor(0x10000)
        c = self.k.compile(x, x, x, 16, BLOCK=128, SCALE=3, num_warps=2,
                           arch="sm_80")
        self.assertEqual(c.info["constexprs"], {"BLOCK": "128", "SCALE": "3"})
        self.assertEqual(c.info["num_warps"], 2)
        self.assertIn(".target sm_80", c.ptx)
        self.assertIn(".entry add_kernel", c.ptx)
        # Constexprs given positionally, as FlashAttention passes its flags.
        c2 = self.k.compile(x, x, x, 16, 128, 3, num_warps=2, arch="sm_80")
        self.assertEqual(c2.info["constexprs"], {"BLOCK": "128", "SCALE": "3"})

    def test_a_dtype_constexpr(self):
        # Anything that spells itself `triton.language.NAME` (Triton's dtypes,
        # the drop-in's) is passed as `tl.NAME`.
        class Bf16:
            def __repr__(self):
                return "triton.language.bfloat16"
        mod = kiln.jit(source=CAST_SOURCE, filename="cast.py")
        x = FakeTensor(0x10000)
        c = mod.cast_kernel.compile(x, DT=Bf16(), BLOCK=128)
        self.assertEqual(c.info["constexprs"], {"BLOCK": "128", "DT": "tl.bfloat16"})
        self.assertIn("cvt.rn.bf16.f32", c.ptx)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "constexpr `DT`: cannot pass a value of type object "
                                    r"\(expected int, float, bool, str, None or a "
                                    r"triton.language dtype\)"):
            mod.cast_kernel.compile(x, DT=object(), BLOCK=128)


CAST_SOURCE = """import triton
import triton.language as tl


@triton.jit
def cast_kernel(x_ptr, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs).to(DT).to(tl.float32))
"""


class ErrorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mod = kiln.jit(source=ADD_SOURCE, filename="add.py")
        cls.x = FakeTensor(0x10000)

    def test_compile_error_at_launch_has_file_line_col(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad_body.py")
            with open(path, "w") as f:
                f.write(BAD_BODY_SOURCE)
            k = kiln.jit(path).bad
            with self.assertRaises(kiln.CompilationError) as e:
                k[(1,)](self.x, BLOCK=64)
            self.assertIn(path + ":6:", str(e.exception))
            self.assertIn(": error: ", str(e.exception))
            self.assertIn("zz", str(e.exception))

    def test_syntax_error_at_lookup(self):
        mod = kiln.jit(source="import triton\n\n@triton.jit\ndef k(x):\n"
                              "    y = (1 +\n", filename="syntax.py")
        with self.assertRaises(kiln.CompilationError) as e:
            mod.k
        self.assertRegex(str(e.exception), r"^syntax\.py:5:\d+: error: ")

    def test_missing_file_and_kernel(self):
        with self.assertRaisesRegex(FileNotFoundError,
                                    "cannot read kernel file /nonexistent.py"):
            kiln.jit("/nonexistent.py")
        with self.assertRaisesRegex(kiln.KernelNotFoundError,
                                    "kernel `nope` not found in add.py; "
                                    "kernels here: add_kernel, scale_kernel"):
            self.mod.nope
        self.assertFalse(hasattr(self.mod, "nope"))
        with self.assertRaises(LookupError):
            self.mod["nope"]

    def test_bad_arguments_name_the_parameter(self):
        k = self.mod.add_kernel
        x = self.x
        with self.assertRaisesRegex(kiln.LaunchError,
                                    r"argument #2 `y_ptr`: cannot pass a "
                                    r"value of type str"):
            k[(1,)](x, "y", x, 1, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    r"missing argument `n` \(argument #4\)"):
            k[(1,)](x, x, x, BLOCK=64)
        # As in Triton, positional arguments fill constexprs too.
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument `BLOCK` given twice"):
            k[(1,)](x, x, x, 1, 2, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    r"takes 6 parameter\(s\) \(x_ptr, y_ptr, "
                                    r"out_ptr, n, BLOCK, SCALE\) but 7 "
                                    r"positional"):
            k[(1,)](x, x, x, 1, 64, 2, 3)
        with self.assertRaisesRegex(kiln.LaunchError, "`n` given twice"):
            k[(1,)](x, x, x, 1, n=2, BLOCK=64)
        c64 = FakeTensor(0x10000, dtype="torch.complex64", element_size=8)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument #3 `out_ptr`: tensor dtype "
                                    "torch.complex64 is not supported"):
            k[(1,)](x, x, c64, 1, BLOCK=64)
        cpu = FakeTensor(0x10000, device=Device("cpu"))
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument #1 `x_ptr`: the tensor is not "
                                    "on a CUDA device"):
            k[(1,)](cpu, x, x, 1, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument #4 `n`: integer 18446744073709"
                                    "551616 does not fit in int64 or "
                                    "uint64"):
            k[(1,)](x, x, x, 2 ** 64, BLOCK=64)
        # The runtime's checks come back as LaunchError too.
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "argument #2 `y_ptr`: 0x10002 is not "
                                    "aligned to its 4-byte elements"):
            k[(1,)](x, FakeTensor(0x10002), x, 1, BLOCK=64)
        # Triton's rule: an empty tensor's null pointer is passed.
        k[(1,)](x, FakeTensor(0), x, 1, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "has no parameter `BLOCKK`"):
            k[(1,)](x, x, x, 1, BLOCK=64, BLOCKK=1)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "num_warps = 3 is not a power of two"):
            k[(1,)](x, x, x, 1, BLOCK=64, num_warps=3)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    r"num_ctas = 2 is not supported"):
            k[(1,)](x, x, x, 1, BLOCK=64, num_ctas=2)
        k[(1,)](x, x, x, 1, BLOCK=64, num_ctas=1)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "grid must have 1 to 3 dimensions"):
            k[()](x, x, x, 1, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "constexpr `BLOCK`: cannot pass a value "
                                    "of type list"):
            k[(1,)](x, x, x, 1, BLOCK=[64])
        # None reaches the specialization, where a pointer cannot be None.
        with self.assertRaisesRegex(kiln.CompilationError,
                                    r"^add\.py:\d+:\d+: error: .*None"):
            k[(1,)](x, None, x, 1, BLOCK=64)
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "no value for constexpr parameter "
                                    "`BLOCK`"):
            k[(1,)](x, x, x, 1)


if __name__ == "__main__":
    unittest.main()
