"""Compiler warnings reach Python as KilnWarning, once per place, under the
drop-in with the stand-in driver (no GPU, no torch)."""
import os
import unittest
import warnings

from test_dropin import Tensor, launches

import kiln
import triton  # noqa: F401, E402  (the drop-in, installed by test_dropin)
from dropin import warned  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WARNED = os.path.join(HERE, "dropin", "warned.py")


class WarningsTest(unittest.TestCase):
    def test_range_keyword_warns_once_and_runs(self):
        x, out = Tensor(0x10000, "torch.int64"), Tensor(0x20000, "torch.int64")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            before = len(launches())
            warned.strided_sum[(1,)](x, out, 100, 7)
            warned.strided_sum[(1,)](x, out, 100, 7)   # the hit path: no warning
            warned.strided_sum[(1,)](x, out, 100, 70)  # same specialization
        self.assertEqual(len(launches()) - before, 3)
        kiln_warnings = [w for w in caught if issubclass(w.category, kiln.KilnWarning)]
        self.assertEqual(len(kiln_warnings), 1, [str(w.message) for w in caught])
        text = str(kiln_warnings[0].message)
        line = next(i for i, l in enumerate(open(WARNED), 1) if "step=S" in l)
        self.assertIn("%s:%d:" % (WARNED, line), text)
        self.assertIn("warning: Triton ignores keyword arguments of `range`", text)
        self.assertIn("for i in range(0, N, step=S):", text)
        # Shown where the launch is, not inside the package.
        self.assertEqual(kiln_warnings[0].filename, __file__)


if __name__ == "__main__":
    unittest.main()
