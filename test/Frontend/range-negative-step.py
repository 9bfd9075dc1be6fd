# A constexpr negative `range` step counts down, as Python and Triton do
# (flash-linear-attention's backward passes: `for i_t in range(NT - 1, -1,
# -1)`): the loop runs over [ub, lb) by -step and the body sees lb + ub - iv.
# RUN: ln-compile %s --kernel k --signature '*i32,i32' --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*i32,i32' --emit=ptx > /dev/null
import triton
import triton.language as tl


@triton.jit
def k(X, N):
    acc = 0
    for i in range(N - 1, -1, -3):
        acc = acc * 7 + i
    tl.store(X, acc)
# CHECK-LABEL: func.func @k
# CHECK: %[[LB:.*]] = arith.subi %arg1, %c1
# CHECK: %[[NEG1:.*]] = arith.constant -1 : i32
# CHECK: %[[STEP:.*]] = arith.constant 3 : i32
# CHECK: scf.for %[[IV:.*]] = %[[NEG1]] to %[[LB]] step %[[STEP]]
# CHECK: %[[D:.*]] = arith.subi %[[LB]], %[[IV]]
# CHECK: arith.addi %[[D]], %[[NEG1]]
