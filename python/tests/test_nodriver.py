"""Without a CUDA driver: launches raise NoDriverError with the reason;
compile-only still works. KILN_CUDA_DRIVER names a missing library."""
import unittest

from kilntest_common import ADD_SOURCE, FakeTensor

import kiln


class NoDriverTest(unittest.TestCase):
    def test_launch_and_devices(self):
        with self.assertRaisesRegex(kiln.NoDriverError,
                                    "^no CUDA driver found: cannot load "
                                    "/nonexistent/libcuda.so.1"):
            kiln.device_count()
        k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel
        x = FakeTensor(0x10000)
        with self.assertRaisesRegex(kiln.NoDriverError, "no CUDA driver"):
            k[(1,)](x, x, x, 16, BLOCK=64)
        self.assertTrue(issubclass(kiln.NoDriverError, kiln.LaunchError))
        self.assertIn(".entry add_kernel", k.compile(x, x, x, 16,
                                                     BLOCK=64).ptx)

    def test_library_location(self):
        import os
        self.assertEqual(os.path.realpath(kiln.library_path),
                         os.path.realpath(os.environ["KILN_LIBRARY"]))
        self.assertEqual(kiln.__version__, "0.1.0")


if __name__ == "__main__":
    unittest.main()
