"""Host tensor descriptors through Kiln's drop-in `triton` (stand-in driver
and tensors; no GPU, no torch): TensorDescriptor arguments specialize by
dtype, block shape and padding, and launch the base, shapes and strides.
The kernel is dropin/descriptors.py."""
import ctypes
import os
import unittest

from kilntest_common import FakeTensor, fake_launches

import kiln

kiln.install()

from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from dropin import descriptors  # noqa: E402

_fake = ctypes.CDLL(os.environ["KILN_FAKE_CUDA"])


def last_params():
    return fake_launches(_fake)[-1]["params"]


def f16(ptr):
    return FakeTensor(ptr, "torch.float16", 100 * 72, None, 2)


class DescriptorLaunchTest(unittest.TestCase):
    def test_launch_passes_base_shapes_and_strides(self):
        k = descriptors.scale_desc
        x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [32, 64])
        y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [32, 64],
                             padding="nan")
        before = _fake.kilnFakeLaunchCount()
        k[(4,)](x, y, 5, BM=32)
        self.assertEqual(last_params(), [0x100000, 100, 70, 72,
                                         0x200000, 100, 70, 72, 5])
        # The hit path: other shapes and strides, same specialization.
        x.shape, x.strides = [50, 64], [64, 1]
        k[(2,)](x, y, 7, BM=32)
        self.assertEqual(last_params(), [0x100000, 50, 64, 64,
                                         0x200000, 100, 70, 72, 7])
        # Another block shape (as an autotuner's pre_hook sets it) is
        # another variant, and launches too.
        x.block_shape = [16, 64]
        y.block_shape = [16, 64]
        k[(4,)](x, y, 5, BM=16)
        self.assertEqual(_fake.kilnFakeLaunchCount(), before + 3)
        self.assertEqual(last_params()[:4], [0x100000, 50, 64, 64])

    def test_autotune_pre_hooks_set_block_shapes_built_ahead(self):
        # Liger's fused MLP: each config's pre_hook sets the descriptors'
        # block_shape. Every config is still compiled ahead, in parallel,
        # from copies the hook reshaped; the caller's descriptors are left
        # to the timed runs' own hooks.
        import triton

        def hook(nargs):
            nargs["x_desc"].block_shape = [nargs["BM"], 64]
            nargs["y_desc"].block_shape = [nargs["BM"], 64]

        configs = [triton.Config({"BM": bm}, num_warps=4, pre_hook=hook)
                   for bm in (8, 64, 128)]
        k = triton.autotune(configs=configs, key=["n"])(
            triton.jit(descriptors.scale_desc.fn))
        x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [1, 64])
        y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [1, 64])
        seen = []

        def bench(call):
            # Before the timed run's hook: all three variants built, the
            # caller's block shape untouched.
            seen.append((len(k.fn._cache), list(x.block_shape)))
            call()
            return {8: 3.0, 64: 1.0, 128: 2.0}[x.block_shape[0]]

        k.user_do_bench = bench
        k[(4,)](x, y, 5)
        self.assertEqual(seen[0], (3, [1, 64]))
        self.assertEqual(k.best_config.kwargs, {"BM": 64})
        self.assertEqual(x.block_shape, [64, 64])   # the chosen config's hook
        self.assertEqual(len(k.fn._cache), 3)

    def test_unsigned_elements_beside_a_pointer(self):
        for dt in ("torch.uint16", "torch.int16"):
            inp = FakeTensor(0x300000, dt, 24 * 64, None, 2)
            out = FakeTensor(0x400000, dt, 24 * 64, None, 2)
            d = TensorDescriptor(inp, [24, 64], [64, 1], [8, 16])
            descriptors.copy_block[(1,)](out, d, 8, 16)
            self.assertEqual(last_params(), [0x400000, 0x300000, 24, 64, 64])

    def test_bad_descriptors(self):
        k = descriptors.scale_desc
        y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [32, 64])
        x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [32, 48])
        with self.assertRaises(kiln.LaunchError) as cm:
            k[(1,)](x, y, 5, BM=32)
        self.assertEqual(str(cm.exception),
                         "kernel `scale_desc`: argument #1 `x_desc`: tensor "
                         "descriptor block_shape [32, 48] is not made of "
                         "powers of two")
        x = TensorDescriptor(f16(0x100008), [100, 70], [72, 1], [32, 64])
        with self.assertRaises(kiln.LaunchError) as cm:
            k[(1,)](x, y, 5, BM=32)
        self.assertIn("the descriptor's base 0x100008 is not 16-byte "
                      "aligned", str(cm.exception))
        x = TensorDescriptor(f16(0x100000), [100, 70], [70, 1], [32, 64])
        with self.assertRaises(kiln.LaunchError) as cm:
            k[(1,)](x, y, 5, BM=32)
        self.assertIn("stride 0 (70 elements) is not a multiple of 16 bytes",
                      str(cm.exception))


class KilnJitDescriptorTest(unittest.TestCase):
    """kiln.jit's own hit path keys and packs descriptors from a memo of
    the ones it has validated: a changed shape, stride or block must still
    reach the launch, and a bad one must still be refused."""

    def setUp(self):
        self.k = kiln.jit(descriptors.__file__).scale_desc

    def test_changed_fields_reach_the_launch(self):
        x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [32, 64])
        y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [32, 64])
        self.k[(4,)](x, y, 5, BM=32)
        self.assertEqual(last_params(), [0x100000, 100, 70, 72,
                                         0x200000, 100, 70, 72, 5])
        self.k[(4,)](x, y, 6, BM=32)  # the memo's entry, same values
        self.assertEqual(last_params(), [0x100000, 100, 70, 72,
                                         0x200000, 100, 70, 72, 6])
        x.shape, x.strides = [50, 64], [64, 1]
        x.base = f16(0x300000)
        self.k[(2,)](x, y, 7, BM=32)
        self.assertEqual(last_params(), [0x300000, 50, 64, 64,
                                         0x200000, 100, 70, 72, 7])
        before = len(self.k._launches)
        x.block_shape = y.block_shape = [16, 64]
        self.k[(4,)](x, y, 5, BM=16)  # another specialization
        self.assertEqual(len(self.k._launches), before + 1)

    def test_a_mutated_descriptor_is_validated_again(self):
        x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [32, 64])
        y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [32, 64])
        self.k[(4,)](x, y, 5, BM=32)
        x.strides = [72, 2]
        with self.assertRaises(kiln.LaunchError) as cm:
            self.k[(4,)](x, y, 5, BM=32)
        self.assertEqual(str(cm.exception),
                         "kernel `scale_desc`: argument #1 `x_desc`: tensor "
                         "descriptor's last stride must be 1, got 2")
        x.strides = [72, 1]
        x.block_shape = [32, 48]
        with self.assertRaises(kiln.LaunchError) as cm:
            self.k[(4,)](x, y, 5, BM=32)
        self.assertIn("block_shape [32, 48] is not made of powers of two",
                      str(cm.exception))


class ShapedTensor(FakeTensor):
    """A stand-in with the shape and strides create_ragged_descriptor reads."""

    def __init__(self, ptr, shape, dtype="torch.float16", element_size=2):
        numel = 1
        for d in shape:
            numel *= d
        super().__init__(ptr, dtype, numel, None, element_size)
        self.shape = list(shape)

    def stride(self, d):
        s = 1
        for n in self.shape[d + 1:]:
            s *= n
        return s


class RaggedDescriptorTest(unittest.TestCase):
    def test_create_ragged_descriptor(self):
        from triton.tools.ragged_tma import create_ragged_descriptor
        d = create_ragged_descriptor(ShapedTensor(0x100000, [300, 96]), [32, 64])
        self.assertEqual(d.shape, [0x7FFF0000, 0x7FFF0000, 1 << 30, 96])
        self.assertEqual(d.strides, [2**34 - 96, 96, 96, 1])
        self.assertEqual(d.block_shape, [1, 1, 32, 64])
        d3 = create_ragged_descriptor(ShapedTensor(0x100000, [3, 300, 64]), [1, 16, 64],
                                      ragged_dim=-2)
        self.assertEqual(d3.shape, [0x7FFF0000, 0x7FFF0000, 3, 1 << 30, 64])
        self.assertEqual(d3.strides, [2**34 - 64, 64, 300 * 64, 64, 1])
        for bad, message in (
                (lambda: create_ragged_descriptor(ShapedTensor(0, [8, 8]), [8, 8], 1),
                 "ragged_dim 1 is not a dimension before the last"),
                (lambda: create_ragged_descriptor(ShapedTensor(0, [8]), [8], 0),
                 "ragged_dim 0 is not a dimension before the last of a rank-1 tensor"),
                (lambda: create_ragged_descriptor(ShapedTensor(0, [8, 8]), [8], 0),
                 "block_shape [8] must have T's rank 2")):
            with self.assertRaises(ValueError) as cm:
                bad()
            self.assertIn(message, str(cm.exception))

    def test_ragged_kernel_launches(self):
        from triton.tools.ragged_tma import create_ragged_descriptor, load_ragged
        x = create_ragged_descriptor(ShapedTensor(0x100000, [300, 96]), [32, 64])
        y = create_ragged_descriptor(ShapedTensor(0x200000, [300, 96]), [32, 64])
        starts = FakeTensor(0x300000, "torch.int32", 4)
        sizes = FakeTensor(0x400000, "torch.int32", 4)
        descriptors.ragged_double[(4, 2)](x, y, starts, sizes, BM=32, BN=64)
        rows = [0x7FFF0000, 0x7FFF0000, 1 << 30, 96, 2**34 - 96, 96, 96]
        # The store in a loop is a 4-D TMA store on sm_90 (the stand-in
        # driver's): y's tensor map follows the parameters (the stand-in
        # encodes the base first).
        self.assertEqual(last_params(), [0x100000] + rows + [0x200000] + rows +
                         [0x300000, 0x400000, 0x200000])
        # The device functions are Triton's builtins seen from the host.
        with self.assertRaises(ValueError) as cm:
            load_ragged(x, 0, 1, [0, 0])
        self.assertIn("Did you forget to add @triton.jit", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
