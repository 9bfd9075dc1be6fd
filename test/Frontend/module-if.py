# A module-level `if` whose condition Kiln can evaluate runs its taken
# branch, as Python runs the file: version guards on `triton.__version__`
# (Kiln compiles Triton 3.6's language and reports 3.6.0, as the drop-in
# does), through packaging.version (mamba's softplus.py) or as strings
# (lightllm), and conditions on constants; `elif` chains and nested ifs
# included. A condition Kiln cannot evaluate leaves the names it binds
# ambiguous (test/Frontend/errors-module.py).
# RUN: ln-compile %s --kernel k --signature '*fp32' -D BLOCK=64 --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel env --signature '*fp32' -D BLOCK=64 --emit=tile 2>&1 | FileCheck --check-prefix=ENV %s
# RUN: not ln-compile %s --kernel pre --signature '*fp32' -D BLOCK=64 --emit=tile 2>&1 | FileCheck --check-prefix=PRE %s
# CHECK-LABEL: func.func @k
# softplus from the TRITON3 branch: log(exp(x) + 1)
# CHECK: math.exp
# CHECK: math.log
# CHECK-NOT: log1p
# SCALE: the elif branch (2.0); OFFSET: the nested if's else (5.0)
# CHECK-DAG: arith.constant dense<2.000000e+00> : tensor<64xf32>
# CHECK-DAG: arith.constant dense<5.000000e+00> : tensor<64xf32>
# NEW_TUPLES: (3, 6) > (3, 0, 1) and (2,) < (2, 0)
# CHECK-DAG: arith.constant dense<7.000000e+00> : tensor<64xf32>
# ENV: module-if.py:[[@LINE+53]]:17: error: `FROM_ENV` is assigned in an `if` statement at {{.*}}module-if.py:[[@LINE+40]]; Kiln cannot tell which assignment runs
# PRE: module-if.py:[[@LINE+57]]:31: error: Kiln compares release versions only (numbers and dots), not `3.0.0rc1`
import os
from typing import TYPE_CHECKING

import triton
import triton.language as tl
from packaging import version

TRITON3 = version.parse(triton.__version__) >= version.parse("3.0.0")

if TRITON3:
    @triton.jit
    def softplus(dt):
        return tl.math.log(tl.math.exp(dt) + 1)
else:
    @triton.jit
    def softplus(dt):
        return tl.math.log1p(tl.exp(dt))

if triton.__version__ < "2.1.0":
    SCALE = 1.0
elif version.parse(triton.__version__) < version.parse("3.6"):
    SCALE = 3.0
elif version.parse(triton.__version__) == version.parse("3.6"):
    SCALE = 2.0
    if SCALE > 10:
        OFFSET = 4.0
    else:
        OFFSET = 5.0
else:
    SCALE = 9.0

NEW_TUPLES = (3, 6) > (3, 0, 1) and (2,) < (2, 0)
if NEW_TUPLES:
    SEVEN = 7.0

if TYPE_CHECKING:
    SEVEN = 0.0

if os.environ.get("KILN_TEST_FLAG"):
    FROM_ENV = 1.0


@triton.jit
def k(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(X + offs, softplus(x) * SCALE + OFFSET + SEVEN)


@triton.jit
def env(X, BLOCK: tl.constexpr):
    tl.store(X, FROM_ENV)


@triton.jit
def pre(X, BLOCK: tl.constexpr):
    tl.store(X, version.parse("3.0.0rc1") > version.parse("2.0"))
