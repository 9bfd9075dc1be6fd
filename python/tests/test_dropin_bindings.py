"""Host bindings through Kiln's drop-in `triton` (stand-in driver and
tensors; no GPU, no torch): names a kernel file binds in module-level `if`
statements whose tests are host code (Liger-Kernel's version checks)
compile with the values Python's run of the module gave them. The kernels
are dropin/host_chosen.py and its helper file dropin/host_chosen_helpers.py.
"""
import ctypes
import enum
import os
import subprocess
import sys
import unittest

from kilntest_common import FakeTensor, fake_launches

import kiln

kiln.install()

import triton  # noqa: E402  (the drop-in)
import triton.language as tl  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402
from triton.language.extra.cuda import libdevice as cuda_libdevice  # noqa
from triton.runtime import bindings  # noqa: E402

from dropin import host_chosen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAIN = os.path.join(HERE, "dropin", "host_chosen.py")
HELPERS = os.path.join(HERE, "dropin", "host_chosen_helpers.py")
CONSTS = os.path.join(HERE, "dropin", "host_chosen_consts.py")
_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])
jit = sys.modules["triton.runtime.jit"]  # the module, not the decorator


def last_launch():
    last = fake_launches(_fake)[-1]
    return last["kernel"], last["grid"], last["params"]


def f32(ptr):
    return FakeTensor(ptr, "torch.float32", 1024, None, 4)


class SpellingTest(unittest.TestCase):
    def test_triton_objects_and_constants(self):
        s = bindings.spelling
        self.assertEqual(s(tl.float16), "triton.language.float16")
        self.assertEqual(s(tl.int32), "triton.language.int32")
        self.assertEqual(s(tl.constexpr(tl.bfloat16)),
                         "triton.language.bfloat16")
        self.assertEqual(s(tl.constexpr(128)), "128")
        self.assertEqual(s(None), "None")
        self.assertEqual(s(True), "True")
        self.assertEqual(s(1e-6), "1e-06")
        self.assertEqual(s(-3), "-3")
        self.assertEqual(s("mean"), "'mean'")
        self.assertEqual(s(libdevice.rsqrt),
                         "triton.language.extra.libdevice.rsqrt")
        self.assertEqual(s(cuda_libdevice.rsqrt),
                         "triton.language.extra.cuda.libdevice.rsqrt")
        self.assertEqual(s(tl.math.rsqrt), "triton.language.math.rsqrt")
        self.assertEqual(s(tl.exp), "triton.language.exp")
        self.assertEqual(s(triton), "triton")
        self.assertEqual(s(tl), "triton.language")
        self.assertEqual(s(libdevice), "triton.language.extra.libdevice")
        self.assertEqual(s((64, tl.float16, None)),
                         "(64, triton.language.float16, None)")
        self.assertEqual(s((1,)), "(1,)")
        self.assertEqual(s([64, (1, 2), tl.int8]),
                         "[64, (1, 2), triton.language.int8]")
        # A @triton.jit function: where it is defined (its first decorator).
        line = host_chosen.rsqrt_kernel.fn.__code__.co_firstlineno
        self.assertEqual(s(host_chosen.rsqrt_kernel),
                         "__kiln_def__(%r, 'rsqrt_kernel', %d)" % (MAIN, line))
        self.assertEqual(open(MAIN).read().splitlines()[line - 1],
                         "@triton.jit")

    def test_anything_else_is_skipped(self):
        class Color(enum.IntEnum):
            RED = 1
        for value in (float("inf"), float("nan"), "x" * 300, Color.RED,
                      os, lambda: 0, [1, os], (1, os),
                      tl.pointer_type(tl.float32), host_chosen.compare_version):
            self.assertIsNone(bindings.spelling(value), value)


class DropinBindingsTest(unittest.TestCase):
    def test_bindings_of_the_file_and_its_helpers(self):
        got = bindings.host_bindings(host_chosen.rsqrt_kernel.fn, MAIN,
                                     [HERE])
        # Only names bound in `if`s: `tl`, `triton` and the helpers'
        # imports are resolved by the compiler itself.
        self.assertEqual(got, (
            "BLOCK=128", "DTYPE=triton.language.float32", "MODE='sum'",
            "OFFSET=2.5", "SCALE=5.0",
            "finish=" + self.defined(MAIN, "finish", "0.5"),
            "rsqrt=triton.language.math.rsqrt",
            "tanh=triton.language.extra.libdevice.tanh",
            CONSTS + "::BIAS=11.0", HELPERS + "::ACT_SCALE=7.0",
            HELPERS + "::shift=" + self.defined(HELPERS, "shift", "17.0")))

    @staticmethod
    def defined(path, name, constant):
        """The drop-in's spelling of the def of `name` in `path` whose body
        holds `constant` (the branch this process took)."""
        lines = open(path).read().splitlines()
        for i, text in enumerate(lines):
            if "def %s(" % name in text and constant in text + lines[i + 1]:
                return "__kiln_def__(%r, %r, %d)" % (path, name, i)
        raise AssertionError("no def of %s with %s" % (name, constant))

    def test_names_bound_in_compound_statements(self):
        import tempfile
        source = (
            "import os\n"
            "X = 1\n"
            "A, (B, C) = 1, (2, 3)\n"
            "if os.environ.get('K'):\n"
            "    from triton.language.extra import libdevice as ld\n"
            "    import triton.language.math\n"
            "    def f(p):\n"
            "        inner = p\n"
            "    class K:\n"
            "        attr = 1\n"
            "    squares = [q * q for q in range(3)]\n"
            "elif (W := 3):\n"
            "    pass\n"
            "try:\n"
            "    from mod import *\n"
            "except ImportError as err:\n"
            "    E = 1\n"
            "for I, J in []:\n"
            "    pass\n"
            "with open(__file__) as fh:\n"
            "    pass\n"
            "G: tl.constexpr = tl.constexpr(helper(3))\n"
            "H = tl.constexpr(4)\n"
            "T = triton.cdiv(5, 2) + tl.constexpr(1)\n"
            "U = obj.method()\n")
        computed = {"G", "U"}
        expected = {"A", "B", "C", "ld", "triton", "f", "K", "squares", "W",
                    "err", "E", "I", "J", "fh"}
        if sys.version_info >= (3, 10):
            source += ("match X:\n"
                       "    case [M, *R]:\n"
                       "        pass\n"
                       "    case {'k': V, **REST}:\n"
                       "        pass\n")
            expected |= {"M", "R", "V", "REST"}
        with tempfile.NamedTemporaryFile("w", suffix=".py",
                                         delete=False) as f:
            f.write(source)
        try:
            # A star import: the names the file binds are unknown (None), so
            # none counts as injected by host code.
            self.assertEqual(bindings._ambiguous_names(f.name)[:3],
                             (expected, computed, None))
            with open(f.name, "w") as g:
                g.write(source.replace("from mod import *", "pass"))
            names, _, bound, _ = bindings._ambiguous_names(f.name)
            self.assertLessEqual(names | computed | {"os", "X", "H", "T"},
                                 bound)
            self.assertNotIn("inner", bound)  # a function's local
            self.assertNotIn("q", bound)  # a comprehension's
        finally:
            os.unlink(f.name)
        self.assertIsNone(bindings._ambiguous_names(f.name))  # unreadable

    def test_liger_style_import_selection_launches(self):
        k = host_chosen.rsqrt_kernel
        x, out = f32(0x10000), f32(0x20000)
        k[(triton.cdiv(1000, host_chosen.BLOCK),)](x, out, 1000)
        self.assertEqual(last_launch(),
                         ("rsqrt_kernel", (8, 1, 1), [0x10000, 0x20000, 1000]))
        ptx = k.warmup(x, out, 1000, grid=(8,)).asm["ptx"]
        self.assertIn("rsqrt.approx.ftz.f32", ptx)  # tl.math.rsqrt's branch
        self.assertIn("mul.f32", ptx)
        self.assertIn("0f40A00000", ptx)  # SCALE = 5.0
        self.assertIn("0f40E00000", ptx)  # the helper's ACT_SCALE = 7.0
        self.assertIn("0f41300000", ptx)  # consts.BIAS = 11.0
        self.assertIn("0f40200000", ptx)  # OFFSET = _offset(10) = 2.5
        # The host-chosen defs: finish's `* 0.5`, the helper's `+ 17.0`.
        self.assertIn("0f3F000000", ptx)
        self.assertIn("0f41880000", ptx)
        self.assertNotIn("0f3E800000", ptx)
        self.assertNotIn("0fC1500000", ptx)

    def test_libdevice_branch(self):
        # Compiled with libdevice's tanh: without libdevice.10.bc on this
        # machine the compile says so, which is past the name's resolution.
        try:
            host_chosen.tanh_kernel[(1,)](f32(0x10000), f32(0x20000), 100)
        except triton.CompilationError as e:
            self.assertIn("calls `__nv_tanhf` from libdevice, but "
                          "libdevice.10.bc was not found", str(e))
        else:
            self.assertEqual(last_launch()[0], "tanh_kernel")

    def test_computed_once_per_file_not_per_launch(self):
        k = host_chosen.rsqrt_kernel
        x, out = f32(0x10000), f32(0x20000)
        k[(1,)](x, out, 100)
        self.assertIn(MAIN, bindings._cache)
        saved = bindings._module_bindings

        def fail(*args):
            raise AssertionError("bindings recomputed")
        bindings._module_bindings = fail
        try:
            k[(1,)](x, out, 50)
            host_chosen.tanh_kernel.kiln_kernel()  # the file's other kernel
        finally:
            bindings._module_bindings = saved

    def test_the_module_cache_key_has_the_bindings(self):
        a = jit._kiln_module(MAIN, [HERE], ("BLOCK=128",))
        self.assertIs(a, jit._kiln_module(MAIN, [HERE], ("BLOCK=128",)))
        self.assertIsNot(a, jit._kiln_module(MAIN, [HERE], ("BLOCK=64",)))

    def test_other_host_values_compile_other_code(self):
        # Another process where the `if`s take their other branches, with
        # the same disk cache: the bindings are part of its key.
        script = (
            "from kilntest_common import FakeTensor\n"
            "import kiln; kiln.install()\n"
            "from dropin import host_chosen as h\n"
            "x = FakeTensor(0x10000, 'torch.float32', 1024, None, 4)\n"
            "print(h.rsqrt_kernel.warmup(x, x, 1000, grid=(4,)).asm['ptx'])\n")
        self.test_liger_style_import_selection_launches()
        env = dict(os.environ, KILN_TEST_BIG_BLOCKS="1", KILN_TEST_FAST_OPS="1")
        run = subprocess.run([sys.executable, "-c", script], cwd=HERE,
                             env=env, capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        ptx = run.stdout
        self.assertIn("0f40C00000", ptx)  # SCALE = 6.0
        self.assertIn("0f40400000", ptx)  # ACT_SCALE = 3.0
        self.assertIn("0f41100000", ptx)  # consts.BIAS = 9.0
        self.assertIn("cvt.rn.f16.f32", ptx)  # DTYPE = tl.float16
        self.assertNotIn("0f40A00000", ptx)
        self.assertIn("0f3E800000", ptx)  # finish's other def: * 0.25
        self.assertIn("0fC1500000", ptx)  # shift's other def: - 13.0
        self.assertNotIn("0f41880000", ptx)


if __name__ == "__main__":
    unittest.main()
