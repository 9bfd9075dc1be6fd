"""A helper file whose @triton.jit functions are chosen by host code, as
flash-linear-attention's ops/utils/op.py does (host-binding-defs.py binds
them with PATH::NAME=__kiln_def__(...)). The functions read SCALE, a name of
this file only: they must be generated here, not in the kernel's file."""
import os

import triton
import triton.language as tl

SCALE = 3.0

if os.environ.get('FAST_OPS', '0') == '1':
    @triton.jit
    def exp(x): return tl.exp2(x.to(tl.float32) * SCALE)
else:
    @triton.jit
    def exp(x): return tl.exp(x.to(tl.float32)) * SCALE
