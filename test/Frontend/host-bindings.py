# Host bindings: a module-level name bound in an `if` whose test is host code
# (Liger-Kernel's version checks) gets its value from the host that ran the
# module (ln-compile --bind, the C API's host_bindings, the drop-in triton).
#
# With the binding, the libdevice function is called; either libdevice
# spelling binds the same function.
# RUN: ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind rsqrt=triton.language.extra.libdevice.rsqrt --emit=tile \
# RUN:   | FileCheck %s --check-prefix=LIB
# RUN: ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind='rsqrt = triton.language.extra.cuda.libdevice.rsqrt' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=LIB
# Without it, the ambiguity error as before.
# RUN: not ln-compile %s --kernel k_rsqrt --signature '*fp32' 2>&1 \
# RUN:   | FileCheck %s --check-prefix=NOBIND
# A name Kiln resolves itself keeps its value; the binding is ignored.
# RUN: ln-compile %s --kernel k_static --signature '*fp32' --bind EPS=0.5 \
# RUN:   --bind LATE=5 --bind rsqrt=triton.language.extra.libdevice.rsqrt \
# RUN:   --emit=tile | FileCheck %s --check-prefix=STATIC
# A constant chosen by the host: BLOCK as a constexpr.
# RUN: ln-compile %s --kernel k_block --signature '*fp32' --bind BLOCK=128 \
# RUN:   --bind DTYPE=triton.language.float16 --bind MODE="'mean'" --emit=tile \
# RUN:   | FileCheck %s --check-prefix=BLOCK128
# RUN: ln-compile %s --kernel k_block --signature '*fp32' --bind BLOCK=64 \
# RUN:   --bind DTYPE=triton.language.bfloat16 --bind MODE=None --emit=tile \
# RUN:   | FileCheck %s --check-prefix=BLOCK64
# Bindings that do not parse or do not evaluate to a compile-time value.
# RUN: not ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind 'rsqrt=triton.language.(' 2>&1 | FileCheck %s --check-prefix=PARSE
# RUN: not ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind 'rsqrt=1; import os' 2>&1 | FileCheck %s --check-prefix=NOTONE
# RUN: not ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind rsqrt=tl.math.rsqrt 2>&1 | FileCheck %s --check-prefix=UNDEF
# RUN: not ln-compile %s --kernel k_rsqrt --signature '*fp32' \
# RUN:   --bind 'rsqrt=triton.language.arange(0, 16)' 2>&1 \
# RUN:   | FileCheck %s --check-prefix=NOTCONST
# A binding gives the final value: it is not used for an `if` followed by
# `+=` (Kiln cannot tell the value the `+=` starts from).
# RUN: not ln-compile %s --kernel k_aug --signature '*fp32' --bind AUG=3 \
# RUN:   2>&1 | FileCheck %s --check-prefix=AUG
# A helper's file gets bindings with its path; a binding without a path is
# the kernel file's only.
# RUN: ln-compile %s --kernel k_helper --signature '*fp32' \
# RUN:   --bind '%S/Inputs/hostbind/act.py::tanh=triton.language.extra.libdevice.tanh' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=HELPER
# RUN: not ln-compile %s --kernel k_helper --signature '*fp32' \
# RUN:   --bind tanh=triton.language.extra.libdevice.tanh 2>&1 \
# RUN:   | FileCheck %s --check-prefix=HELPERMAIN
# Malformed flags are usage errors.
# RUN: not ln-compile %s --kernel k_rsqrt --bind rsqrt 2>&1 | FileCheck %s --check-prefix=USAGE1
# RUN: not ln-compile %s --kernel k_rsqrt --bind 2x=1 2>&1 | FileCheck %s --check-prefix=USAGE2
# RUN: not ln-compile %s --kernel k_rsqrt --bind X=1 --bind X=2 2>&1 | FileCheck %s --check-prefix=USAGE3
# RUN: not ln-compile %s --kernel k_rsqrt --bind X= 2>&1 | FileCheck %s --check-prefix=USAGE4
import operator
import os

import triton
import triton.language as tl

from liger_kernel.utils import compare_version, is_npu_available

from .Inputs.hostbind.act import act

if compare_version("triton", operator.ge, "3.0.0") and not is_npu_available():
    try:
        from triton.language.extra.libdevice import rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import rsqrt
else:
    from triton.language.math import rsqrt

if os.environ.get("BIG_BLOCKS"):
    BLOCK = 128
    DTYPE = tl.float16
    MODE = "mean"
else:
    BLOCK = 64
    DTYPE = tl.bfloat16
    MODE = None

EPS = 1e-6
if os.environ.get("LATE"):
    LATE = 1
LATE = 3

if os.environ.get("AUG"):
    AUG = 1
else:
    AUG = 2
AUG += 1


@triton.jit
def k_rsqrt(X):
    offs = tl.arange(0, 128)
    x = tl.load(X + offs)
    tl.store(X + offs, rsqrt(x))
# LIB-LABEL: func.func @k_rsqrt
# LIB: tile.extern_elementwise "__nv_rsqrtf"
# NOBIND: host-bindings.py:[[@LINE-3]]:24: error: `rsqrt` is assigned in an `if` statement at {{.*}}host-bindings.py:64; Kiln cannot tell which assignment runs
# PARSE: host-bindings.py:[[@LINE-4]]:24: error: host binding `rsqrt=triton.language.(` for `rsqrt` (assigned in an `if` statement at {{.*}}host-bindings.py:64) does not parse: {{.*}} (column 17 of the expression)
# NOTONE: host-bindings.py:[[@LINE-5]]:24: error: host binding `rsqrt=1; import os` for `rsqrt` (assigned in an `if` statement at {{.*}}host-bindings.py:64) is not one expression
# UNDEF: host-bindings.py:[[@LINE-6]]:24: error: host binding `rsqrt=tl.math.rsqrt` for `rsqrt` (assigned in an `if` statement at {{.*}}host-bindings.py:64) cannot be evaluated: name `tl` is not defined
# NOTCONST: host-bindings.py:[[@LINE-7]]:24: error: host binding `rsqrt=triton.language.arange(0, 16)` for `rsqrt` (assigned in an `if` statement at {{.*}}host-bindings.py:64) is tensor<16xi32>, not a compile-time value
# USAGE1: ln-compile: error: --bind: host binding `rsqrt`: expected NAME=EXPR or PATH::NAME=EXPR
# USAGE2: ln-compile: error: --bind: host binding `2x=1`: `2x` is not a valid name
# USAGE3: ln-compile: error: --bind: `X` is bound twice
# USAGE4: ln-compile: error: --bind: host binding `X=`: missing expression after `=`


@triton.jit
def k_static(X):
    tl.store(X, EPS + LATE)
# STATIC-LABEL: func.func @k_static
# STATIC: arith.constant 3.00000095 : f32


@triton.jit
def k_block(X):
    offs = tl.arange(0, BLOCK)
    tl.static_assert(MODE is None or MODE == "mean")
    tl.store(X + offs, tl.load(X + offs).to(DTYPE).to(tl.float32))
# BLOCK128-LABEL: func.func @k_block
# BLOCK128: tile.arange 0 to 128 : tensor<128xi32>
# BLOCK128: arith.truncf {{.*}} to tensor<128xf16>
# BLOCK64-LABEL: func.func @k_block
# BLOCK64: tile.arange 0 to 64 : tensor<64xi32>
# BLOCK64: arith.truncf {{.*}} to tensor<64xbf16>


@triton.jit
def k_aug(X):
    tl.store(X, AUG)
# AUG: host-bindings.py:[[@LINE-1]]:17: error: `AUG` is defined at {{.*}}host-bindings.py:90 by `1`, which Kiln cannot evaluate: `AUG` is assigned in an `if` statement at {{.*}}host-bindings.py:86; Kiln cannot tell which assignment runs


@triton.jit
def k_helper(X):
    offs = tl.arange(0, 128)
    tl.store(X + offs, act(tl.load(X + offs)))
# HELPER-LABEL: func.func @k_helper
# HELPER: tile.extern_elementwise "__nv_tanhf"
# HELPERMAIN: act.py:17:12: error: `tanh` is assigned in an `if` statement at {{.*}}act.py:9; Kiln cannot tell which assignment runs
