"""A kernel module that asks the target through triton.language.target_info
at import and inside a constexpr function (triton_kernels' form)."""
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq, is_cuda, is_hip

# Host code at import: which code path the library takes.
HOPPER_OR_NEWER = cuda_capability_geq(9, 0)


@triton.constexpr_function
def has_wgmma():
    return cuda_capability_geq(9, 0) and not is_hip()


@triton.jit
def arch_flag(Out):
    if has_wgmma():
        tl.store(Out, 90)
    elif is_cuda():
        tl.store(Out, 1)
    else:
        tl.store(Out, 0)
