"""A @triton.jit helper whose constant is chosen by host code: its file
gets its own host bindings (`PATH::NAME=EXPR`)."""
import os

import triton

if os.environ.get("KILN_TEST_BIG_BLOCKS"):
    ACT_SCALE = 3.0
else:
    ACT_SCALE = 7.0


@triton.jit
def act(x):
    return x * ACT_SCALE
