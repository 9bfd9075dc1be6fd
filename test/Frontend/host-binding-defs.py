# Host bindings of @triton.jit functions: a def chosen by host code (an `if`
# over an environment variable, flash-linear-attention's ops/utils/op.py) is
# named by the drop-in as __kiln_def__('PATH', 'NAME', LINE), LINE any line
# of the def's decorators or its `def` line.
#
# The kernel file's own defs, either branch.
# RUN: ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%s', 'act', 32)" --emit=tile \
# RUN:   | FileCheck %s --check-prefix=TWICE
# RUN: ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%s', 'act', 37)" --emit=tile \
# RUN:   | FileCheck %s --check-prefix=PLUS
# A helper file's def, generated in its file (it reads the helper's SCALE).
# RUN: ln-compile %s --kernel k_helper --signature '*fp32' \
# RUN:   --bind "%S/Inputs/hostbind/fastops.py::exp=__kiln_def__('%S/Inputs/hostbind/fastops.py', 'exp', 14)" \
# RUN:   --emit=tile | FileCheck %s --check-prefix=HELPER
# Errors: no def there, no such file, a malformed marker.
# RUN: not ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%s', 'act', 35)" 2>&1 | FileCheck %s --check-prefix=NODEF
# RUN: not ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%S/none.py', 'act', 32)" 2>&1 | FileCheck %s --check-prefix=NOFILE
# RUN: not ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%s', 32)" 2>&1 | FileCheck %s --check-prefix=MALFORMED
import os

import triton
import triton.language as tl

from .Inputs.hostbind.fastops import exp

if os.environ.get("DOUBLE"):
    @triton.jit
    def act(x):
        return x * 2.0
else:
    @triton.jit
    def act(x):
        return x + 1.0


@triton.jit
def k_own(X):
    offs = tl.arange(0, 16)
    tl.store(X + offs, act(tl.load(X + offs)))
# TWICE-LABEL: func.func @k_own
# TWICE: arith.mulf
# TWICE-NOT: arith.addf
# PLUS-LABEL: func.func @k_own
# PLUS: arith.addf
# PLUS-NOT: arith.mulf
# NODEF: host-binding-defs.py:[[@LINE-7]]:24: error: host binding `act=__kiln_def__('{{.*}}host-binding-defs.py', 'act', 35)` for `act` (assigned in an `if` statement at {{.*}}host-binding-defs.py:31) names no function: there is no `def act` at line 35 of {{.*}}host-binding-defs.py
# NOFILE: host-binding-defs.py:[[@LINE-8]]:24: error: {{.*}} names no function: there is no file {{.*}}none.py
# MALFORMED: host-binding-defs.py:[[@LINE-9]]:24: error: {{.*}} is not __kiln_def__('PATH', 'NAME', LINE)


@triton.jit
def k_helper(X):
    offs = tl.arange(0, 16)
    tl.store(X + offs, exp(tl.load(X + offs)))
# HELPER-LABEL: func.func @k_helper
# HELPER: arith.constant dense<3.000000e+00>
# HELPER: math.exp2


# A def inside a function (FlagGems' tests define their scalar functions in
# the test): found by its line; the drop-in spells only those without free
# variables, so the module's names are its names.
# RUN: ln-compile %s --kernel k_own --signature '*fp32' \
# RUN:   --bind "act=__kiln_def__('%s', 'act', 73)" --emit=tile \
# RUN:   | FileCheck %s --check-prefix=NESTED
def make_scaled():
    @triton.jit
    def act(x):
        return x * 5.0
    return act
# NESTED-LABEL: func.func @k_own
# NESTED: arith.constant dense<5.000000e+00>
# NESTED: arith.mulf
