"""@triton.jit static methods of classes under the drop-in, against the
stand-in driver (no GPU, no torch): a module-level kernel calling a class's
helper, and a kernel that is itself a static method (trident's layout)."""
import unittest

from test_dropin import Tensor, launches

import triton  # noqa: E402  (the drop-in, installed by test_dropin)
from dropin import classes  # noqa: E402


def _f32_hex(value):
    import struct
    return "0f%08X" % struct.unpack("<I", struct.pack("<f", value))[0]


class ClassMethodKernelTest(unittest.TestCase):
    def setUp(self):
        self.x, self.y = Tensor(0x10000), Tensor(0x20000)

    def test_module_kernel_calls_a_class_helper(self):
        ptx = classes.with_class_helper.warmup(self.x, self.y, BLOCK=128,
                                               grid=(1,)).asm["ptx"]
        self.assertIn(_f32_hex(3.0), ptx)
        self.assertIn("max.f32", ptx)

    def test_static_method_kernel_launches(self):
        ptx = classes.Relu.kernel.warmup(self.x, self.y, BLOCK=64, grid=(2,)).asm["ptx"]
        self.assertIn(".entry kernel", ptx)
        self.assertIn(_f32_hex(3.0), ptx)
        self.assertIn(_f32_hex(1.0), ptx)
        before = len(launches())
        classes.Relu.kernel[(2,)](self.x, self.y, BLOCK=64)
        got = launches()[before:]
        self.assertEqual([g["kernel"] for g in got], ["kernel"])
        self.assertEqual(got[0]["grid"], (2, 1, 1))


if __name__ == "__main__":
    unittest.main()
