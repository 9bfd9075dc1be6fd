# torchao defines its kernels under `if has_triton():` (torch.utils._triton),
# with stubs that raise in the `else`, and imports triton inside the `if`:
# Triton is what Kiln compiles, so the condition is True (as importlib's
# find_spec("triton") is), the kernel and its helper are the `if`'s, and the
# decorators see the triton imported there.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,i64' -D BLOCK=128 --emit tile | FileCheck %s
from torch.utils._triton import has_triton

if has_triton():
    import triton
    import triton.language as tl

    @triton.jit
    def helper(x):
        return x + 1

    @triton.jit
    def k(x_ptr, n: tl.int64, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, helper(tl.load(x_ptr + offs)), mask=offs < n)

else:

    def helper(x):
        raise RuntimeError("needs triton")

    def k(*args, **kwargs):
        raise RuntimeError("needs triton")

# CHECK-LABEL: func.func @k(
# CHECK: arith.addf
# CHECK: tile.store
