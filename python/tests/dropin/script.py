"""A host script as users write them, run by test_dropin.py through
`python -m kiln.run` (the stand-in driver, stand-in tensors)."""
import sys

import triton

from kilntest_common import FakeTensor

from dropin import kernels


def main(argv):
    x, y, out = (FakeTensor(p) for p in (0x10000, 0x20000, 0x30000))
    if argv and argv[0] == "broken":
        from dropin import broken
        broken.broken_kernel[(1,)](x, BLOCK=16)
        return
    count = int(argv[0]) if argv else 1
    for _ in range(count):
        kernels.add_kernel[(triton.cdiv(1000, 256),)](x, y, out, 1000,
                                                      BLOCK=256)
    kernels.bias_kernel[(1,)](out, None, 1.5, 16, BLOCK=16)
    print("ran %d launches; argv %s" % (count, argv))


if __name__ == "__main__":
    main(sys.argv[1:])
