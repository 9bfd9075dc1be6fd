"""Constants chosen by host code, reached as `consts.BIAS` through the
module object (host_chosen.py): the walk follows user modules too."""
import os

if os.environ.get("KILN_TEST_BIG_BLOCKS"):
    BIAS = 9.0
else:
    BIAS = 11.0
