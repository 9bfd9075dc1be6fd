# `for x in t` over a tuple is unrolled at compile time, one body per
# element (a tuple argument, a tuple display, a helper's returned tuple),
# with unpacking targets; tuple concatenation and negative indices.
# RUN: ln-compile %s --kernel k --signature '*fp32,(*fp32,*fp32,*fp32)' --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def _pairs(a, b):
    return ((a, 1.0), (b, 2.0))


@triton.jit
def k(X, srcs):
    r = tl.arange(0, 16)
    acc = tl.zeros([16], tl.float32)
    for s in srcs:
        acc += tl.load(s + r)
    for p, w in _pairs(srcs[0], srcs[-1]):
        acc += tl.load(p + r) * w
    t = (1, 2) + (3,)
    n = 0
    for v in t:
        n += v
    tl.static_assert(n == 6)
    tl.store(X + r, acc)

# CHECK-LABEL: func.func @k(
# CHECK-SAME: %arg1: !tile.ptr<f32> {tile.name = "srcs.0"}, %arg2: !tile.ptr<f32> {tile.name = "srcs.1"}, %arg3: !tile.ptr<f32> {tile.name = "srcs.2"}
# CHECK: tile.splat %arg1
# CHECK: tile.splat %arg2
# CHECK: tile.splat %arg3
# CHECK: tile.splat %arg1
# CHECK: tile.splat %arg3
# CHECK: arith.constant dense<2.000000e+00>
# CHECK-NOT: tile.load
# CHECK: tile.store
