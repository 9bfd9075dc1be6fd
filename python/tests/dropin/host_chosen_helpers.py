"""A @triton.jit helper whose constant and helper function are chosen by
host code (the function as flash-linear-attention's ops/utils/op.py chooses
its exp): its file gets its own host bindings (`PATH::NAME=EXPR`)."""
import os

import triton

if os.environ.get("KILN_TEST_BIG_BLOCKS"):
    ACT_SCALE = 3.0
else:
    ACT_SCALE = 7.0

if os.environ.get("KILN_TEST_FAST_OPS", "0") == "1":
    @triton.jit
    def shift(x): return x - 13.0
else:
    @triton.jit
    def shift(x): return x + 17.0


@triton.jit
def act(x):
    return shift(x * ACT_SCALE)
