"""Bad launches through Kiln's drop-in `triton` (issue 13): each wrong launch
gets an exact error naming the parameter (or the grid / option) and none
reaches the driver's cuLaunchKernel. Stand-in driver and stand-in tensors: no
GPU, no torch. The kernels are in dropin/bad_launch.py."""
import ctypes
import os
import unittest

from kilntest_common import Device, FakeTensor, fake_launches

import kiln

kiln.install()

import triton  # noqa: E402  (the drop-in)

from dropin import bad_launch  # noqa: E402

_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])
_WHERE = "kernel `scale_kernel`: "


def f32(ptr):
    return FakeTensor(ptr, "torch.float32", 1024, None, 4)


class BadLaunchTest(unittest.TestCase):
    def setUp(self):
        self.k = bad_launch.scale_kernel
        self.x, self.out = f32(0x10000), f32(0x30000)
        # A good launch first: every later case hits a compiled kernel or
        # compiles a new specialization, and must still not launch.
        self.k[(1,)](self.x, self.out, 100, BLOCK=32)
        self.launches = _fake.kilnFakeLaunchCount()

    def fails(self, error, message, *args, grid=(1,), **kwargs):
        kwargs.setdefault("BLOCK", 32)
        with self.assertRaises(error) as cm:
            self.k[grid](*args, **kwargs)
        self.assertEqual(str(cm.exception), message)
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches,
                         "a bad launch reached cuLaunchKernel")

    def test_wrong_count(self):
        self.fails(TypeError, "scale_kernel() missing 1 required positional "
                   "argument: 'n'", self.x, self.out)
        self.fails(TypeError, "scale_kernel() got multiple values for "
                   "argument 'BLOCK'", self.x, self.out, 100, 32)
        self.fails(TypeError, "scale_kernel() got an unexpected keyword "
                   "argument 'm'", self.x, self.out, 100, m=3)

    def test_too_many_positional_counts_the_kernels_parameters(self):
        # The generated launcher takes the grid as its first positional
        # parameter; the message counts the kernel's parameters only, as
        # Triton's does (4 and 5 for a 4-parameter kernel given 5).
        cases = [(self.k, (self.x, self.out, 100, 32, 7),
                  "scale_kernel() takes 4 positional arguments but 5 were "
                  "given"),
                 (self.k, (self.x, self.out, 100, 32, 7, 8),
                  "scale_kernel() takes 4 positional arguments but 6 were "
                  "given"),
                 # A first launch (no compiled entry yet), with a default.
                 (bad_launch.scale_kernel_defaults,
                  (self.x, self.out, 100, 32, 7),
                  "scale_kernel_defaults() takes from 3 to 4 positional "
                  "arguments but 5 were given")]
        for kernel, args, message in cases:
            with self.assertRaises(TypeError) as cm:
                kernel[(1,)](*args)
            self.assertEqual(str(cm.exception), message)
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches)
        # With BLOCK also given by keyword, Python's own check comes first.
        self.fails(TypeError, "scale_kernel() got multiple values for "
                   "argument 'BLOCK'", self.x, self.out, 100, 32, 7)

    def test_wrong_kinds(self):
        self.fails(kiln.LaunchError, _WHERE + "argument #3 `n`: cannot pass a "
                   "value of type str (expected a tensor, an object with "
                   "__cuda_array_interface__, int, float, bool, None or a "
                   "tuple of those)",
                   self.x, self.out, "100")
        self.fails(kiln.LaunchError, _WHERE + "argument #2 `out_ptr`: cannot "
                   "pass a value of type list (expected a tensor, an object "
                   "with __cuda_array_interface__, int, float, bool, None or "
                   "a tuple of those)",
                   self.x, [1.0], 100)
        self.fails(kiln.LaunchError, _WHERE + "argument #3 `n`: integer "
                   "18446744073709551616 does not fit in int64 or uint64",
                   self.x, self.out, 2 ** 64)
        self.fails(TypeError, _WHERE + "constexpr `BLOCK`: a value of type "
                   "list is not hashable",
                   self.x, self.out, 100, BLOCK=[32])

    def test_a_float_where_a_pointer_is_used_is_a_compile_error_there(self):
        with self.assertRaises(triton.CompilationError) as cm:
            self.k[(1,)](1.5, self.out, 100, BLOCK=32)
        self.assertRegex(str(cm.exception),
                         r"bad_launch\.py:10:38: error: `tl\.load` expects a "
                         r"pointer or a tensor of pointers, got tensor<32xf32>")
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches)

    def test_wrong_dtypes(self):
        c64 = FakeTensor(0x40000, "torch.complex64", 16, None, 8)
        self.fails(kiln.LaunchError, _WHERE + "argument #1 `x_ptr`: tensor "
                   "dtype torch.complex64 is not supported", c64, self.out, 4)

        class Array:
            __cuda_array_interface__ = {"typestr": "<c8", "shape": (4,),
                                        "data": (0x40000, False)}
        self.fails(kiln.LaunchError, _WHERE + "argument #2 `out_ptr`: array "
                   "typestr '<c8' is not supported", self.x, Array(), 4)
        cpu = FakeTensor(0x40000, "torch.float32", 16, Device("cpu"), 4)
        self.fails(kiln.LaunchError, _WHERE + "argument #1 `x_ptr`: the "
                   "tensor is not on a CUDA device (device cpu:0)", cpu,
                   self.out, 4)

    def test_none_and_null_pointers(self):
        # Triton's rule: a null pointer (an empty tensor's data_ptr()) is
        # passed as it is, in the 16-byte aligned specialization.
        self.k[(1,)](self.x, f32(0), 0, BLOCK=32)
        self.launches += 1
        last = fake_launches(_fake)[-1]
        self.assertEqual(last["kernel"], "scale_kernel")
        self.assertEqual(last["params"][:2], [0x10000, 0])
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches)
        # None specializes the parameter away (as in Triton): the kernel's
        # use of it is the error, at its place in the source.
        with self.assertRaises(triton.CompilationError) as cm:
            self.k[(1,)](None, self.out, 100, BLOCK=32)
        self.assertRegex(str(cm.exception),
                         r"bad_launch\.py:10:38: error: unsupported operand "
                         r"for `\+`: None\n.*tl\.load\(x_ptr \+ offs")
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches)

    def test_misaligned_pointers(self):
        # Not 16-byte aligned: a specialization without the alignment (as in
        # Triton), and it launches.
        self.k[(1,)](self.x, f32(0x30004), 100, BLOCK=32)
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches + 1)
        self.launches += 1
        # Not aligned to its elements: every access would fault.
        self.fails(kiln.LaunchError, _WHERE + "argument #2 `out_ptr`: 0x30002 "
                   "is not aligned to its 4-byte elements (fp32)", self.x,
                   f32(0x30002), 100)
        f16 = FakeTensor(0x20001, "torch.float16", 16, None, 2)
        self.fails(kiln.LaunchError, _WHERE + "argument #1 `x_ptr`: 0x20001 "
                   "is not aligned to its 2-byte elements (fp16)", f16,
                   self.out, 100)

    def test_grid(self):
        # A zero dimension runs nothing, as in Triton.
        for grid in ((0,), (4, 0), (1, 1, 0)):
            self.k[grid](self.x, self.out, 100, BLOCK=32)
        self.assertEqual(_fake.kilnFakeLaunchCount(), self.launches)
        self.fails(kiln.LaunchError, _WHERE + "grid dimension y is 65536, "
                   "above the device limit 65535", self.x, self.out, 100,
                   grid=(1, 65536))
        self.fails(kiln.LaunchError, _WHERE + "grid dimension z is 70000, "
                   "above the device limit 65535", self.x, self.out, 100,
                   grid=(1, 1, 70000))
        self.fails(kiln.LaunchError, _WHERE + "grid dimension x is "
                   "2147483648, above the device limit 2147483647", self.x,
                   self.out, 100, grid=(2 ** 31,))
        self.fails(kiln.LaunchError, _WHERE + "grid (-1,) or an argument is "
                   "out of range (argument out of range)", self.x, self.out,
                   100, grid=(-1,))
        self.fails(kiln.LaunchError, _WHERE + "grid must have 1 to 3 "
                   "dimensions, got (1, 1, 1, 1)", self.x, self.out, 100,
                   grid=(1, 1, 1, 1))
        self.fails(kiln.LaunchError, _WHERE + "grid (6710886400,) or an "
                   "argument is out of range ('I' format requires 0 <= number "
                   "<= 4294967295)", self.x, self.out, 100,
                   grid=lambda meta: (meta["n"] << 26,))

    def test_options(self):
        self.fails(kiln.LaunchError, "num_warps = 64 is not a power of two in "
                   "1..32", self.x, self.out, 100, num_warps=64)
        self.fails(kiln.LaunchError, _WHERE + "num_ctas = 3: expected 1, 2, "
                   "4, 8 or 16", self.x, self.out, 100, num_ctas=3)

    def test_too_much_shared_memory(self):
        i32 = [FakeTensor(p, "torch.int32", 1024, None, 4)
               for p in (0x10000, 0x20000)]
        h = bad_launch.histogram_kernel
        h[(1,)](*i32, BLOCK=256, BINS=1024)  # 4 KiB: fine
        before = _fake.kilnFakeLaunchCount()
        with self.assertRaises(kiln.LaunchError) as cm:
            h[(1,)](*i32, BLOCK=256, BINS=65536)
        self.assertEqual(str(cm.exception),
                         "kernel `histogram_kernel` needs 262144 bytes of "
                         "shared memory (0 static + 262144 dynamic); device 0 "
                         "allows at most 232448 per block")
        self.assertEqual(_fake.kilnFakeLaunchCount(), before)


if __name__ == "__main__":
    unittest.main()
