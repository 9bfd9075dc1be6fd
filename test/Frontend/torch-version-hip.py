# `torch.version.hip` is None: Kiln compiles for NVIDIA GPUs, beside CUDA
# builds of PyTorch. Kernels and module-level constants test it to choose
# AMD-only code (torchao's `if tl.constexpr(torch.version.hip is not None):`),
# through `import torch`, `import torch as th` or `from torch import version`.
# Any other use of torch in a kernel stays an error that says what is known.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=64 --emit=tile \
# RUN:   | FileCheck %s
# RUN: not ln-compile %s --kernel other_torch --signature '*fp32' --emit=tile 2>&1 \
# RUN:   | FileCheck %s --check-prefix=ERR
# RUN: not ln-compile %s --kernel local_torch --signature '*fp32' --emit=tile 2>&1 \
# RUN:   | FileCheck %s --check-prefix=LOCAL
# RUN: ln-compile %s --kernel torch_dtypes --signature '*fp32' --emit=tile | FileCheck %s --check-prefix=DTYPE
import torch
import torch as th
from torch import version
import triton
import triton.language as tl

IS_HIP = torch.version.hip is not None
ON_CUDA: tl.constexpr = tl.constexpr(not IS_HIP)


# Only the CUDA branches: x + 1, then - 5; no * 2 nor * 3.
# CHECK-LABEL: func.func @k
# CHECK-NOT: arith.mulf
# CHECK: arith.constant dense<1.000000e+00>
# CHECK-NEXT: arith.addf
# CHECK-NOT: arith.mulf
# CHECK: arith.constant dense<5.000000e+00>
# CHECK-NEXT: arith.subf
# CHECK-NOT: arith.mulf
# CHECK: tile.store
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    if tl.constexpr(torch.version.hip is not None):
        x = x * 2
    else:
        x = x + 1
    if IS_HIP or th.version.hip is not None or version.hip is not None:
        x = x * 3
    if ON_CUDA:
        x = x - 5
    tl.store(X + offs, x, mask=offs < N)


@triton.jit
def other_torch(X):
    tl.store(X, torch.version.cuda)
# ERR: torch-version-hip.py:[[@LINE-1]]:17: error: `torch` is the module `torch`, which kernels cannot use (of torch, kernels may read `torch.version.hip`: None, as Kiln runs beside CUDA builds of PyTorch, and dtypes such as `torch.float16`, which equal no tl dtype)


# A local named like the module is not the module.
@triton.jit
def local_torch(X):
    torch = 3
    tl.store(X, torch.version.hip)
# LOCAL: torch-version-hip.py:[[@LINE-1]]:23: error: unknown attribute `torch.version` (constexpr int 3 has no attributes)


@triton.jit
def torch_dtypes(V):
    # A torch dtype (tritonbench's `if V.dtype == torch.float8_e5m2:`) equals
    # no tl dtype, as under Triton, and equals itself.
    x = tl.load(V)
    if V.dtype.element_ty == torch.float32:
        x = x * 2.0
    if torch.float16 == torch.float16:
        x = x + 1.0
    tl.store(V, x)


# DTYPE-LABEL: func.func @torch_dtypes
# DTYPE-NOT: arith.mulf
# DTYPE: arith.addf
