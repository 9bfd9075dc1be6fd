"""Module constants read by kernels in another package."""
BLOCK_DEFAULT = 128
BIAS = 0.5
