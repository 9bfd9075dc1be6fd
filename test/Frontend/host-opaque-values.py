# A host value Kiln does not model (an attribute of a module it does not
# know, a name imported from a module Kiln cannot find) has no known truth,
# ordering or arithmetic: using one as a condition, in a comparison or in
# arithmetic is an error at the expression, never a guessed branch (a
# `some_module.flag` was truthy, and `64 if USE_X else 128` silently took
# 64). Passing one through, or a branch Python does not take, stays fine.
# RUN: ln-compile %s --kernel k_pass --list-configs | FileCheck %s --check-prefix=PASS
# RUN: not ln-compile %s --kernel k_if --list-configs 2>&1 | FileCheck %s --check-prefix=IF
# RUN: not ln-compile %s --kernel k_if --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=IF
# RUN: not ln-compile %s --kernel k_and --list-configs 2>&1 | FileCheck %s --check-prefix=AND
# RUN: not ln-compile %s --kernel k_cmp --list-configs 2>&1 | FileCheck %s --check-prefix=CMP
# RUN: not ln-compile %s --kernel k_is --list-configs 2>&1 | FileCheck %s --check-prefix=IS
# RUN: not ln-compile %s --kernel k_arith --list-configs 2>&1 | FileCheck %s --check-prefix=ARITH
# RUN: not ln-compile %s --kernel k_heur --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=HEUR
# RUN: not ln-compile %s --kernel k_default --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=DEFAULT
# RUN: not ln-compile %s --kernel k_modif --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=MODIF
# RUN: ln-compile %s --kernel k_modif --signature '*fp32,i32' --bind BLK=32 --emit=tile | FileCheck %s --check-prefix=BOUND
import triton
import triton.language as tl
import some_unknown_module
from some_pkg import flags

USE_X = some_unknown_module.flag
BLOCK = 64 if USE_X else 128
NOT_TAKEN = 64 if True else some_unknown_module.flag
PASSED = [USE_X, flags]
SHORT = False and USE_X
LAST = True and USE_X


def pick(x):
    return x


@triton.autotune(configs=[triton.Config({"B": NOT_TAKEN + len(PASSED)}, num_warps=4 if SHORT is False else 8)]
                 if len([pick(LAST)]) == 1 else [], key=["n"])
@triton.jit
def k_pass(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# PASS: 0: B: 66, num_warps: 4
# PASS-NOT: 1:


@triton.autotune(configs=[triton.Config({"B": BLOCK})], key=["n"])
@triton.jit
def k_if(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# IF: host-opaque-values.py:24:15: error: `USE_X` is `some_unknown_module.flag`, a host value Kiln cannot evaluate, so Kiln cannot tell whether it is true; Kiln evaluates decorators without Python: leave them to the host (ln-compile --host-decorators; the Python drop-in runs them as Python)


@triton.autotune(configs=[triton.Config({"B": 32}, num_warps=8 if flags.FAST and True else 4)], key=["n"])
@triton.jit
def k_and(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# AND: host-opaque-values.py:[[@LINE-4]]:67: error: `flags.FAST` is imported from module `some_pkg` (line 21), which Kiln cannot find (no package roots given: pass -I DIR to ln-compile or include_dirs to the C API), so Kiln cannot tell whether it is true; Kiln evaluates decorators


@triton.autotune(configs=[triton.Config({"B": 32 if flags.MODE == "fast" else 64})], key=["n"])
@triton.jit
def k_cmp(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# CMP: host-opaque-values.py:[[@LINE-4]]:53: error: `flags.MODE` is imported from module `some_pkg` (line 21), which Kiln cannot find (no package roots given: pass -I DIR to ln-compile or include_dirs to the C API), so Kiln cannot compare it (`flags.MODE == "fast"`)


@triton.autotune(configs=[triton.Config({"B": 32 if some_unknown_module.block is None else 64})], key=["n"])
@triton.jit
def k_is(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# IS: host-opaque-values.py:[[@LINE-4]]:53: error: `some_unknown_module.block` is a host value Kiln cannot evaluate, so Kiln cannot compare it (`some_unknown_module.block is None`)


@triton.autotune(configs=[triton.Config({"B": 2 * some_unknown_module.BLOCK})], key=["n"])
@triton.jit
def k_arith(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# ARITH: host-opaque-values.py:[[@LINE-4]]:51: error: `some_unknown_module.BLOCK` is a host value Kiln cannot evaluate, so Kiln cannot compute `2 * some_unknown_module.BLOCK`


@triton.heuristics({"B": lambda args: 32 if not flags.FAST else 64})
@triton.jit
def k_heur(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# HEUR: host-opaque-values.py:[[@LINE-4]]:49: error: heuristic `B`: `flags.FAST` is imported from module `some_pkg` (line 21), which Kiln cannot find (no package roots given: pass -I DIR to ln-compile or include_dirs to the C API), so Kiln cannot tell whether it is true; Kiln evaluates decorators without Python


# Kernels read module-level names with the compiler's own evaluator, which
# never guessed: the error names the host value and points at --bind.
@triton.jit
def k_default(X, n, B: tl.constexpr = BLOCK):
    tl.store(X + tl.arange(0, B), 1)
# DEFAULT: host-opaque-values.py:[[@LINE-2]]:39: error: `BLOCK` is defined at {{.*}}host-opaque-values.py:24 by `64 if USE_X else 128`, which Kiln cannot evaluate: `some_unknown_module` is the module `some_unknown_module`, which kernels cannot use; {{.*}}; give the value of `USE_X` or of `BLOCK` as a host binding (ln-compile --bind USE_X=EXPR or --bind BLOCK=EXPR; the Python drop-in binds them from the loaded module){{$}}


if USE_X:
    BLK = 64
else:
    BLK = 128


@triton.jit
def k_modif(X, n):
    tl.store(X + tl.arange(0, BLK), 1)
# MODIF: host-opaque-values.py:[[@LINE-1]]:31: error: `BLK` is assigned in an `if` statement at {{.*}}host-opaque-values.py:[[@LINE-9]]; Kiln cannot tell which assignment runs; give its value as a host binding (ln-compile --bind BLK=EXPR
# BOUND: tile.arange 0 to 32

# Either binding the merged hint names works.
# RUN: ln-compile %s --kernel k_default --signature '*fp32,i32' --bind USE_X=True --emit=tile -o /dev/null
# RUN: ln-compile %s --kernel k_default --signature '*fp32,i32' --bind BLOCK=32 --emit=tile -o /dev/null
