# Two spellings real kernel files use (lightllm's decode kernels), compiled as
# Triton 3.6 compiles them:
# - `range(a, b, step=s)`: Triton's code generator reads only the positional
#   arguments of Python's `range` and drops the keywords, so the loop steps by
#   1. Kiln does the same and warns once per place (tl.range takes `step=`).
# - `tl.cast(0, dtype=tl.int64)`: a number is made a scalar of its default
#   type first (Triton's to_tensor: i32) and then cast.
# RUN: ln-compile %s --kernel k --signature '*i64,i32,i32,i32' --emit=tile \
# RUN:   -o %t.mlir 2>%t.err
# RUN: FileCheck %s --input-file=%t.mlir
# RUN: FileCheck %s --check-prefix=WARN --input-file=%t.err
# WARN: range-keywords-number-casts.py:[[@LINE+16]]:39: warning: Triton ignores keyword arguments of `range` (this loop steps by its positional step, 1 if none), and so does Kiln; for `step=` or `num_stages=` use `tl.range`
# WARN-NEXT: for i in range(start, total, step=stride):
# WARN-NEXT: ^
# WARN-NOT: warning
# CHECK-LABEL: func.func @k
# CHECK: %[[Z:.*]] = arith.constant 0 : i32
# CHECK: %[[Z64:.*]] = arith.extsi %[[Z]] : i32 to i64
# CHECK: %[[ONE:.*]] = arith.constant 1 : i32
# CHECK: scf.for %{{.*}} = %arg1 to %arg2 step %[[ONE]] iter_args(%{{.*}} = %[[Z64]]) -> (i64)
# CHECK: scf.for %{{.*}} = %arg1 to %arg2 step %[[ONE2:[^ ]+]] iter_args
import triton
import triton.language as tl


@triton.jit
def _add_all(X, start, total, stride, acc):
    for i in range(start, total, step=stride):
        acc += tl.load(X + i)
    return acc


@triton.jit
def k(X, start, total, stride):
    acc = tl.cast(0, dtype=tl.int64)
    acc = _add_all(X, start, total, stride, acc)
    acc = _add_all(X, start, total, stride, acc)
    tl.store(X, acc)
