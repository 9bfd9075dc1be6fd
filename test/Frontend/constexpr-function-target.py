# triton.language.target_info inside a @triton.constexpr_function (the form
# of triton_kernels' target_info.py): the host evaluator answers for the
# architecture being compiled, as the kernel-side builtins do; outside a
# compile there is no target to answer for.
# RUN: ln-compile %s --kernel k --signature '*i32' --arch sm_90 --emit=tile | FileCheck %s --check-prefix=SM90
# RUN: ln-compile %s --kernel k --signature '*i32' --arch sm_80 --emit=tile | FileCheck %s --check-prefix=SM80
# RUN: not ln-compile %s --kernel bad --signature '*i32' --emit=tile 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq, is_hip


@triton.constexpr_function
def has_wgmma():
    return cuda_capability_geq(9, 0) and not is_hip()


@triton.constexpr_function
def has_native_mxfp():
    return tl.target_info.cuda_capability_geq(10, minor=0)


@triton.constexpr_function
def mixed_up():
    return cuda_capability_geq("9")


# SM90-LABEL: func.func @k(
# SM90: %[[C:.*]] = arith.constant 90 : i32
# SM90: tile.store %arg0, %[[C]]
# SM80-LABEL: func.func @k(
# SM80: %[[C:.*]] = arith.constant 80 : i32
# SM80: tile.store %arg0, %[[C]]
@triton.jit
def k(Out):
    if has_native_mxfp():
        tl.store(Out, 100)
    elif has_wgmma():
        tl.store(Out, 90)
    else:
        tl.store(Out, 80)


# BAD: constexpr-function-target.py:25:12: error: `cuda_capability_geq()` takes integers (major, minor=0), got a str and an int (in @triton.constexpr_function `mixed_up`)
@triton.jit
def bad(Out):
    tl.store(Out, mixed_up())
