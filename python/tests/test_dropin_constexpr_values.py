"""Constexpr values from host code through the drop-in (stand-in driver and
tensors): IntEnum members, defaults Python evaluated from host data, and
infinite or NaN floats, each compiled to the value Triton would use."""
import struct
import unittest

from kilntest_common import FakeTensor

import kiln

kiln.install()

from dropin import host_constexprs as hc  # noqa: E402


def stored(value):
    """The `mov.b32 %r, BITS;` operand of an fp32 constant being stored."""
    return ", %d;" % struct.unpack("<i", struct.pack("<f", value))[0]


def ptx(**constexprs):
    out = FakeTensor(0x10000)
    return hc.fill_kernel.warmup(out, grid=(1,), **constexprs).asm["ptx"]


class ConstexprValueTest(unittest.TestCase):
    def test_int_enum_member_is_its_value(self):
        plain = ptx(MODE=hc.Mode.PLAIN, MASK=0.0)
        clamped = ptx(MODE=hc.Mode.CLAMPED, MASK=0.0)
        # MODE == 1 clamps LOW (-448) at 0: the clamped kernel stores zeros.
        self.assertIn(stored(-448.0), plain)
        self.assertNotIn(stored(-448.0), clamped)
        self.assertEqual(ptx(MODE=1, MASK=0.0), clamped)

    def test_default_from_host_data(self):
        # LOW's default, _info.min, is host data only Python can evaluate.
        self.assertIn(stored(-448.0), ptx(MODE=0, MASK=0.0))
        self.assertIn(stored(-123.0), ptx(MODE=0, MASK=0.0, LOW=-123.0))

    def test_infinite_and_nan_floats(self):
        self.assertIn(stored(float("-inf")), ptx(MODE=0, MASK=float("-inf")))
        self.assertIn(stored(float("inf")), ptx(MODE=0, MASK=float("inf")))
        self.assertIn(stored(float("nan")), ptx(MODE=0, MASK=float("nan")))


if __name__ == "__main__":
    unittest.main()
