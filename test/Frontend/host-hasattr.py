# `hasattr(tl, "NAME")` in host code (FBGEMM's feature tests at module level)
# answers from what kernels here can use: tl / triton.language and its
# submodules (tl.math, libdevice, tl.extra.cuda). Of other objects it is an
# error, never a guess.
# RUN: ln-compile %s --kernel k --list-configs | FileCheck %s
# RUN: not ln-compile %s --kernel k_opaque --list-configs 2>&1 | FileCheck %s --check-prefix=OPAQUE
# RUN: not ln-compile %s --kernel k_module --list-configs 2>&1 | FileCheck %s --check-prefix=MODULE
# RUN: not ln-compile %s --kernel k_int --list-configs 2>&1 | FileCheck %s --check-prefix=INT
# RUN: ln-compile %s --kernel k_dev --signature '*fp32' --emit=tile | FileCheck %s --check-prefix=DEV
import triton
import triton.language as tl
from triton.language.extra import libdevice
import some_unknown_module

HAS_DOT_SCALED = hasattr(tl, "dot_scaled")
HAS_NOTHING = hasattr(triton.language, "no_such_builtin")
HAS_EXP = hasattr(tl.math, "exp") and hasattr(libdevice, "rsqrt")
HAS_CUDA = hasattr(tl.extra.cuda, "no_such_extra")


@triton.autotune(configs=[triton.Config({"B": 64 if HAS_DOT_SCALED else 16},
                                        num_warps=8 if HAS_NOTHING else 4,
                                        num_stages=2 if HAS_EXP and not HAS_CUDA else 5)],
                 key=["n"])
@triton.jit
def k(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# CHECK: 0: B: 64, num_warps: 4, num_ctas: 1, num_stages: 2
# CHECK-NOT: 1:


@triton.autotune(configs=[triton.Config({"B": 64 if hasattr(some_unknown_module.sub, "fast") else 16})],
                 key=["n"])
@triton.jit
def k_opaque(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# OPAQUE: host-hasattr.py:[[@LINE-5]]:53: error: `some_unknown_module.sub` is a host value Kiln cannot evaluate, so Kiln cannot tell whether it has attribute `fast`; Kiln evaluates decorators


@triton.autotune(configs=[triton.Config({"B": 64 if hasattr(some_unknown_module, "fast") else 16})], key=["n"])
@triton.jit
def k_module(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# MODULE: host-hasattr.py:[[@LINE-4]]:53: error: `hasattr(some_unknown_module, "fast")`: Kiln answers `hasattr` only for triton.language and its submodules, not module `some_unknown_module`


@triton.autotune(configs=[triton.Config({"B": 64 if hasattr(3, "real") else 16})], key=["n"])
@triton.jit
def k_int(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# INT: host-hasattr.py:[[@LINE-4]]:53: error: `hasattr(3, "real")`: Kiln answers `hasattr` only for triton.language and its submodules, not an int


# In kernels the compiler's own evaluator answers it the same way.
if hasattr(tl, "libdevice"):
    tl_math = tl.libdevice
else:
    tl_math = tl.math


@triton.jit
def k_dev(X):
    tl.store(X, tl_math.exp(tl.load(X)) + HAS_DOT_SCALED)
# DEV: math.exp
