# A module-level `try` whose body only aliases triton names Kiln knows (and
# imports it resolves) is the branch that runs, as under Triton 3.6; FlagGems'
# random_utils.py binds `uint_to_uniform_float = tl.uint_to_uniform_float`
# this way with a jit fallback in `except AttributeError`. A body naming
# something Kiln does not know stays ambiguous.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,i32' --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel uses_missing --signature '*fp32:16' --emit=tile 2>&1 | FileCheck %s --check-prefix=AMBIG
import triton
import triton.language as tl

try:
    uint_to_float = tl.uint_to_uniform_float
    fast_max = tl.maximum
except AttributeError:
    @triton.jit
    def uint_to_float(x):
        return x.to(tl.float32)

try:
    missing = tl.no_such_function
except AttributeError:
    missing = None


@triton.jit
def k(X, seed):
    r = tl.arange(0, 128)
    x = uint_to_float(tl.randint(seed, r))
    tl.store(X + r, fast_max(x, 0.5))

# CHECK-LABEL: func.func @k
# CHECK: arith.sitofp
# CHECK: arith.maxnumf


@triton.jit
def uses_missing(X):
    tl.store(X, missing)

# AMBIG: try-triton-alias.py:[[@LINE-2]]:17: error: `missing` is assigned in a `try` statement at {{.*}}try-triton-alias.py:19; Kiln cannot tell which assignment runs
