# Module-level names are resolved lazily: host code (torch, classes, try
# blocks, benchmarks) is parsed and skipped, and a kernel may read any
# module-level constant Kiln can evaluate. A host-only name is an error at
# the kernel's use, naming its definition.
# RUN: ln-compile %s --kernel k_ok --signature '*i32' --emit=tile | FileCheck %s --check-prefix=OK
# RUN: not ln-compile %s --kernel k_device --signature '*i32' 2>&1 | FileCheck %s --check-prefix=DEVICE
# RUN: not ln-compile %s --kernel k_torch --signature '*i32' 2>&1 | FileCheck %s --check-prefix=TORCH
# RUN: not ln-compile %s --kernel k_apex --signature '*i32' 2>&1 | FileCheck %s --check-prefix=APEX
# RUN: not ln-compile %s --kernel k_class --signature '*i32' 2>&1 | FileCheck %s --check-prefix=CLASS
# RUN: not ln-compile %s --kernel k_from --signature '*i32' 2>&1 | FileCheck %s --check-prefix=FROM
# RUN: not ln-compile %s --kernel k_chain --signature '*i32' 2>&1 | FileCheck %s --check-prefix=CHAIN
# RUN: not ln-compile %s --kernel k_later --signature '*i32' 2>&1 | FileCheck %s --check-prefix=LATER
# RUN: not ln-compile %s --kernel k_deleted --signature '*i32' 2>&1 | FileCheck %s --check-prefix=DELETED
# RUN: not ln-compile %s --kernel k_default --signature '*i32' 2>&1 | FileCheck %s --check-prefix=DEFAULT
import torch
import triton
import triton.language as tl
from flash_attn.utils.torch import custom_fwd

try:
    import apex
    HAS_APEX = True
except ModuleNotFoundError:
    HAS_APEX = False

DEVICE = triton.runtime.driver.active.get_active_torch_device()

BLOCK: tl.constexpr = 128
EPS = 1e-6
ONE = tl.constexpr(1)
B = 21
A = B * 2
C = 1
C += 2
P, Q = 3, 4
DEPENDS_ON_TORCH = torch.float16 if HAS_APEX else 1
TEMP = 5
del TEMP
jit = triton.jit
lang = triton.language


class Config:
    block = 64


@custom_fwd
def host_helper(x):
    return {k: v for k, v in x.items()}


@jit
def k_ok(Out):
    lang.static_assert(BLOCK == 128, f"BLOCK is {BLOCK}, EPS is {EPS}")
    tl.store(Out, A + ONE + C + P * 10 + Q * 100)
    tl.static_assert(EPS < 1e-5)
    tl.store(Out + BLOCK, 7)
# OK-LABEL: func.func @k_ok
# A + ONE + C + P * 10 + Q * 100 = 42 + 1 + 3 + 30 + 400
# OK: arith.constant 476 : i32
# OK: tile.store
# OK: arith.constant 128 : i32


@triton.jit
def k_device(Out):
    tl.store(Out, DEVICE)
# DEVICE: module-lazy.py:[[@LINE-1]]:19: error: `DEVICE` is defined at {{.*}}module-lazy.py:26 by a call to `triton.runtime.driver.active.get_active_torch_device`, which Kiln cannot evaluate


@triton.jit
def k_torch(Out):
    x = torch.ones
# TORCH: module-lazy.py:[[@LINE-1]]:9: error: `torch` is the module `torch`, which kernels cannot use


@triton.jit
def k_apex(Out):
    if HAS_APEX:
        pass
# APEX: module-lazy.py:[[@LINE-2]]:8: error: `HAS_APEX` is assigned in a `try` statement at {{.*}}module-lazy.py:20; Kiln cannot tell which assignment runs


@triton.jit
def k_class(Out):
    tl.store(Out, Config.block)
# CLASS: module-lazy.py:[[@LINE-1]]:19: error: `Config.block` is not a @triton.jit static method of class `Config`; of a class, kernels can use only those


@triton.jit
def k_from(Out):
    custom_fwd(Out)
# FROM: module-lazy.py:[[@LINE-1]]:5: error: `custom_fwd` is `custom_fwd` from module `flash_attn.utils.torch` (imported at {{.*}}module-lazy.py:18), which kernels cannot use


@triton.jit
def k_chain(Out):
    tl.store(Out, DEPENDS_ON_TORCH)
# CHAIN: module-lazy.py:[[@LINE-1]]:19: error: `DEPENDS_ON_TORCH` is defined at {{.*}}module-lazy.py:36 by `torch.float16 if HAS_APEX else 1`, which Kiln cannot evaluate: `HAS_APEX` is assigned in a `try` statement at {{.*}}module-lazy.py:20; Kiln cannot tell which assignment runs


@triton.jit
def k_later(Out):
    tl.store(Out, LATER)
# LATER: module-lazy.py:[[@LINE-1]]:19: error: `LATER` is defined at {{.*}}module-lazy.py:[[@LINE+3]] by `tl.program_id(0)`, which is not a compile-time constant


LATER = tl.program_id(0)


@triton.jit
def k_deleted(Out):
    tl.store(Out, TEMP)
# DELETED: module-lazy.py:[[@LINE-1]]:19: error: `TEMP` is deleted at {{.*}}module-lazy.py:38


@triton.jit
def k_default(Out, V: tl.constexpr = HAS_APEX):
    tl.store(Out, V)
# DEFAULT: module-lazy.py:[[@LINE-2]]:38: error: `HAS_APEX` is assigned in a `try` statement


if __name__ == "__main__":
    k_ok[(1,)](torch.empty(1))


# A name a plain host function computed (xformers' `rsqrt =
# libdevice_find("rsqrt")`): the error points at --bind, which compiles it.
# RUN: not ln-compile %s --kernel k_found --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=FOUND
# RUN: ln-compile %s --kernel k_found --signature '*fp32' --bind rsqrt=triton.language.extra.libdevice.rsqrt --emit=tile | FileCheck %s --check-prefix=BOUND
def libdevice_find(name):
    import importlib
    return getattr(importlib.import_module("triton.language.extra.libdevice"), name)


rsqrt = libdevice_find("rsqrt")


@triton.jit
def k_found(X):
    tl.store(X, rsqrt(tl.load(X)))
# FOUND: module-lazy.py:[[@LINE-1]]:17: error: `rsqrt` is defined at {{.*}}module-lazy.py:[[@LINE-6]] by a call to `libdevice_find`, which Kiln cannot evaluate; give its value as a host binding (ln-compile --bind rsqrt=EXPR; the Python drop-in binds it from the loaded module)
# BOUND: tile.extern_elementwise "__nv_rsqrtf"
