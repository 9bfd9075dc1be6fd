# `>>` is arithmetic or logical by the signedness of the tensor operand that
# Triton dispatches on (the left one, or the right one under a Python scalar),
# not by the promoted type: int32 >> uint32 promotes both to uint32 and still
# shifts arithmetically (Triton's test_shift_op); uint32 >> int32 is logical.
# RUN: ln-compile %s --kernel shifts --signature '*i32,*u32,*i32' --emit=tile \
# RUN:   | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def shifts(X, Y, Z):
    x = tl.load(X)
    y = tl.load(Y)
    tl.store(Z + 0, x >> y)
    tl.store(Z + 1, y >> x)
    tl.store(Z + 2, 7 >> y)
    tl.store(Z + 3, 7 >> x)
    tl.store(Z + 4, x >> 3)
    tl.store(Z + 5, y >> 3)

# CHECK-LABEL: func.func @shifts
# CHECK: %[[X:.*]] = tile.load
# CHECK: %[[Y:.*]] = tile.load
# CHECK: arith.shrsi %[[X]], %[[Y]] : i32
# CHECK: arith.shrui %[[Y]], %[[X]] : i32
# CHECK: arith.shrui %{{.*}}, %[[Y]] : i32
# CHECK: arith.shrsi %{{.*}}, %[[X]] : i32
# CHECK: arith.shrsi %[[X]], %{{.*}} : i32
# CHECK: arith.shrui %[[Y]], %{{.*}} : i32
