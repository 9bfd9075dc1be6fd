"""library_sweep.py's guesses of which kernel parameters are pointers, and a
sweep of a small package through libkiln (no GPU; skipped without
KILN_LIBRARY)."""
import os
import subprocess
import sys
import tempfile
import unittest

import library_sweep

BODY = """
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(Input + offs * stride_qm, mask=offs < N_CTX)
    s = tl.load(Q_scale + pid)
    y = x * tl.load(Scale) * sm_scale
    tl.store(Output + offs, y, mask=offs < M + 1)
    q = x_ptr + Seq_len
    h = HEAD_DIM + 1
"""


class PointerGuessTest(unittest.TestCase):
    def test_capitalized_tensors_offset_or_loaded_are_pointers(self):
        for name in ("Input", "Output", "Scale", "Q_scale", "x_ptr"):
            self.assertTrue(library_sweep.is_pointer(name, BODY), name)

    def test_sizes_strides_and_all_caps_names_are_not(self):
        for name in ("N_CTX", "M", "sm_scale", "Seq_len", "stride_qm", "HEAD_DIM"):
            self.assertFalse(library_sweep.is_pointer(name, BODY), name)

    def test_guess_turns_pointers_and_floats_into_specs(self):
        params = [("Input", "", None), ("N_CTX", "", None), ("sm_scale", "", None),
                  ("BLOCK", "tl.constexpr", None)]
        args, constexprs = library_sweep.guess(params, BODY)
        self.assertEqual(args[0][0], "ptr")
        self.assertEqual(args[1], ["int", 64])
        self.assertEqual(args[2][0], "float")
        self.assertEqual(constexprs, {"BLOCK": 32})


UTILS = """
def _probe():
    return True


HAS_TRITON = _probe()
if HAS_TRITON:
    import triton
    import triton.language as tl
"""

KERNELS = """
from .utils import tl, triton


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
"""


@unittest.skipUnless(os.environ.get("KILN_LIBRARY"), "KILN_LIBRARY is not set")
class SweepTest(unittest.TestCase):
    def sweep(self, *extra):
        with tempfile.TemporaryDirectory() as root:
            pkg = os.path.join(root, "pkg")
            os.mkdir(pkg)
            for name, text in (("__init__.py", ""), ("utils.py", UTILS),
                               ("kernels.py", KERNELS)):
                with open(os.path.join(pkg, name), "w") as f:
                    f.write(text)
            extra = [e.replace("@PKG@", pkg) for e in extra]
            r = subprocess.run([sys.executable, library_sweep.__file__, pkg] + extra,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            return r.stdout

    def test_names_bound_in_a_host_if_need_a_binding(self):
        out = self.sweep()
        self.assertIn("0/1 kernels compile", out)
        self.assertIn("`triton` is assigned in an `if` statement", out)

    def test_bind_gives_them(self):
        out = self.sweep("--bind", "@PKG@/utils.py::triton=triton",
                         "--bind", "@PKG@/utils.py::tl=triton.language")
        self.assertIn("1/1 kernels compile", out)


if __name__ == "__main__":
    unittest.main()
