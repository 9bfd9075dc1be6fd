"""Helpers a kernel file star-imports (gemlite's `from .utils import *`)."""
import triton
import triton.language as tl

from .consts import *  # noqa: F403 (BIAS, through this module's own star import)


@triton.jit
def add_bias(x):
    return x + BIAS  # noqa: F405


@triton.jit
def _private(x):
    return x * 0.0
