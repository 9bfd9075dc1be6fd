# Helpers defined inside module-level compound statements (mamba's softplus
# under `if TRITON3:`), with a module constant of their own.
import triton
import triton.language as tl

SCALE: tl.constexpr = 3.0

if triton.__version__ >= "3.0.0":

    @triton.jit
    def scaled(x):
        return x * SCALE

else:

    @triton.jit
    def scaled(x):
        return x
