# getattr / hasattr with constexpr names (Triton's tests pick a math method
# by name: `getattr(x, MATH_FN)()`), and a @triton.jit function given for a
# constexpr parameter (`ACTIVATION_FN=...`): the drop-in spells it by its
# definition, `__kiln_def__('PATH', 'NAME', LINE)`.
# RUN: ln-compile %s --kernel by_name --signature '*fp32' -D "MATH_FN='exp2'" --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel apply --signature '*fp32' -D "FN=__kiln_def__('%s', 'halve', 27)" --emit=tile | FileCheck %s --check-prefix=FUNC
# RUN: ln-compile %s --kernel apply --signature '*fp32' -D FN=triton.language.math.exp --emit=tile | FileCheck %s --check-prefix=TLFN
# RUN: not ln-compile %s --kernel apply --signature '*fp32' -D "FN=__kiln_def__('%s', 'halve', 12)" --emit=tile 2>&1 | FileCheck %s --check-prefix=NOFN
# RUN: not ln-compile %s --kernel by_name --signature '*fp32' -D "MATH_FN=3" --emit=tile 2>&1 | FileCheck %s --check-prefix=NOTSTR
# A function for a parameter that is not tl.constexpr (Triton specializes it too): its signature entry.
# RUN: ln-compile %s --kernel apply_plain --signature "*fp32,__kiln_def__('%s', 'halve', 27)" --emit=tile | FileCheck %s --check-prefix=PLAIN
# RUN: ln-compile %s --kernel apply_plain --signature '*fp32,triton.language.math.exp' --emit=tile | FileCheck %s --check-prefix=PLAINTL
# RUN: not ln-compile %s --kernel apply_plain --signature "*fp32,__kiln_def__('%s', 'halve', 12)" --emit=tile 2>&1 | FileCheck %s --check-prefix=PLAINNOFN
import triton
import triton.language as tl


@triton.jit
def by_name(X, MATH_FN: tl.constexpr):
    r = tl.arange(0, 16)
    x = tl.load(X + r)
    y = getattr(x, MATH_FN)() + getattr(tl, MATH_FN)(x) + getattr(tl, "nope", tl.exp)(x)
    tl.static_assert(hasattr(tl, MATH_FN) and not hasattr(x, "nope"))
    tl.store(X + r, y)


@triton.jit
def halve(x):
    return x * 0.5


@triton.jit
def apply(X, FN: tl.constexpr):
    r = tl.arange(0, 16)
    tl.store(X + r, FN(tl.load(X + r)))



@triton.jit
def apply_plain(X, fn):
    r = tl.arange(0, 16)
    tl.store(X + r, fn(tl.load(X + r)))

# PLAIN-LABEL: func.func @apply_plain(%arg0: !tile.ptr<f32>
# PLAIN-NOT: %arg1
# PLAIN: arith.mulf
# PLAINTL: math.exp
# PLAINNOFN: error: signature entry 2: `__kiln_def__('{{.*}}', 'halve', 12)` names no function

# CHECK-LABEL: func.func @by_name
# CHECK-COUNT-2: math.exp2
# CHECK: math.exp %
# FUNC-LABEL: func.func @apply
# FUNC: arith.constant dense<5.000000e-01>
# FUNC: arith.mulf
# TLFN: tile.constexprs = {FN = "triton.language.math.exp"}
# TLFN: math.exp
# NOFN: error: -D FN: `__kiln_def__('{{.*}}getattr-and-function-constexprs.py', 'halve', 12)` names no function: there is no `def halve` at line 12 of {{.*}}getattr-and-function-constexprs.py
# NOTSTR: error: the name given to `getattr` must be a constexpr string, got constexpr int 3
