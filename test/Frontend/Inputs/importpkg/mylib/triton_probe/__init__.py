# vLLM's triton_utils since it checks the active drivers: whether Triton is
# used is decided in a `try` (importing.py), which Kiln cannot evaluate.
from mylib.triton_probe.importing import HAS_TRITON

if HAS_TRITON:
    import triton
    import triton.language as tl
else:
    triton = None
    tl = None
