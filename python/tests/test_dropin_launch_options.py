"""Launch options through the drop-in and kiln.jit against the stand-in
CUDA driver: launch_cooperative_grid, launch_pdl, and kernel parameters named
like options (arguments, not options)."""
import ctypes
import os
import unittest

from kilntest_common import FakeTensor, fake_launches

import kiln

kiln.install()

import triton  # noqa: E402  (the drop-in)

from dropin import kernels  # noqa: E402

_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])


def launches():
    return fake_launches(_fake)


class LaunchOptionTest(unittest.TestCase):
    def setUp(self):
        self.x = FakeTensor(0x10000)
        self.y = FakeTensor(0x20000)
        self.out = FakeTensor(0x30000)

    def test_launch_cooperative_grid(self):
        # Triton's option: cuLaunchCooperativeKernel, a launcher of its own
        # (the plain launch of the same arguments stays on the hit path).
        k = triton.jit(kernels.add_kernel.fn)
        _fake.kilnFakeCalls.argtypes = [ctypes.c_char_p]
        before = _fake.kilnFakeCalls(b"cuLaunchCooperativeKernel")
        k[(132,)](self.x, self.y, self.out, 1000, BLOCK=64,
                  launch_cooperative_grid=True)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchCooperativeKernel"),
                         before + 1)
        self.assertEqual(launches()[-1]["grid"], (132, 1, 1))
        k[(132,)](self.x, self.y, self.out, 1000, BLOCK=64)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchCooperativeKernel"),
                         before + 1)
        # The stand-in holds 132 x 16 programs of 128 threads at once.
        with self.assertRaisesRegex(kiln.LaunchError,
                                    "launch_cooperative_grid: the grid "
                                    "2113x1x1 \\(2113 programs of 128 "
                                    "threads\\) cannot be resident"):
            k[(2113,)](self.x, self.y, self.out, 1000, BLOCK=64,
                       launch_cooperative_grid=True)
        # kiln.jit takes the same keyword.
        plain = kiln.jit(kernels.add_kernel.fn)
        plain[(2,)](self.x, self.y, self.out, 1000, BLOCK=64,
                    launch_cooperative_grid=True)
        # (the refused launch reached the driver too)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchCooperativeKernel"),
                         before + 3)
        self.assertEqual(launches()[-1]["grid"], (2, 1, 1))

    def test_launch_pdl(self):
        # Triton's programmatic dependent launch: cuLaunchKernelEx with the
        # programmatic stream serialization attribute, under the drop-in and
        # kiln.jit; a plain launch stays on cuLaunchKernel.
        k = triton.jit(kernels.add_kernel.fn)
        _fake.kilnFakeCalls.argtypes = [ctypes.c_char_p]
        before = _fake.kilnFakeCalls(b"cuLaunchKernelEx(pdl)")
        k[(3,)](self.x, self.y, self.out, 1000, BLOCK=64, launch_pdl=True)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchKernelEx(pdl)"),
                         before + 1)
        self.assertEqual(launches()[-1]["grid"], (3, 1, 1))
        self.assertEqual(launches()[-1]["params"][3], 1000)
        k[(3,)](self.x, self.y, self.out, 1000, BLOCK=64, launch_pdl=False)
        k[(3,)](self.x, self.y, self.out, 1000, BLOCK=64)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchKernelEx(pdl)"),
                         before + 1)
        # Both stay on the hit path once specialized (the keyword path
        # would read the options again), each with its own launcher.
        def keyword_path(kw):
            raise AssertionError("keyword path taken for %r" % (kw,))
        k._split_options = keyword_path
        try:
            for pdl in (True, False, True, True, False):
                k[(3,)](self.x, self.y, self.out, 1000, BLOCK=64,
                        launch_pdl=pdl)
        finally:
            del k._split_options
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchKernelEx(pdl)"),
                         before + 4)
        plain = kiln.jit(kernels.add_kernel.fn)
        plain[(2,)](self.x, self.y, self.out, 1000, BLOCK=64, launch_pdl=True)
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchKernelEx(pdl)"),
                         before + 5)
        self.assertEqual(launches()[-1]["grid"], (2, 1, 1))

    def test_parameters_named_like_launch_options(self):
        k = kernels.option_named
        _fake.kilnFakeCalls.argtypes = [ctypes.c_char_p]
        pdl = _fake.kilnFakeCalls(b"cuLaunchKernelEx")
        # (values other than 1, which would be constexprs)
        for args in ((2, 4), (0, 3), (3, 2)):
            k[(1,)](self.out, *args, BLOCK=16)
            self.assertEqual(launches()[-1]["params"][1:3], list(args))
        k[(1,)](self.out, launch_pdl=2, num_ctas=5, BLOCK=16)
        self.assertEqual(launches()[-1]["params"][1:3], [2, 5])
        self.assertEqual(_fake.kilnFakeCalls(b"cuLaunchKernelEx"), pdl)


if __name__ == "__main__":
    unittest.main()
