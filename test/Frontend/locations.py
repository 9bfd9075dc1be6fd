# Every op carries the .py location of the expression that produced it, so
# errors found after the frontend still point into the kernel file; ops of an
# inlined helper carry the helper's own lines.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=64 \
# RUN:   --emit=tile --print-debuginfo | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2.0


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    tl.store(X + offs, twice(x), mask=offs < N)

# CHECK: func.func @k(
# CHECK: tile.arange 0 to 64 : tensor<64xi32> {{.*}}locations.py:17:12
# CHECK: tile.addptr {{.*}} {{.*}}locations.py:18:17
# CHECK: arith.cmpi slt, {{.*}} {{.*}}locations.py:18:32
# CHECK: tile.load {{.*}} {{.*}}locations.py:18:9
# CHECK: arith.mulf {{.*}} {{.*}}locations.py:12:12
# CHECK: tile.store {{.*}} {{.*}}locations.py:19:5
# CHECK: } {{.*}}locations.py:16:5
