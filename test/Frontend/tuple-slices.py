# Slices of tuples in kernels, with Python's semantics (Triton's tl.tuple
# slices too): negative and omitted bounds, steps, clamping, empty results,
# and a shape built from a slice (triton_kernels' `x.shape[:-1] + [32]`).
# The static_asserts check the values while compiling.
# RUN: ln-compile %s --kernel k --signature '*i32:16' --emit=tile | FileCheck %s
# RUN: ln-compile %S/Inputs/tuple-slices-errors.py --kernel bad --signature '*i32:16' \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


@triton.jit
def k(X):
    t = (1, 2, 3, 4, 5)
    tl.static_assert(t[1:3] == (2, 3))
    tl.static_assert(t[:-1] == (1, 2, 3, 4))
    tl.static_assert(t[-2:] == (4, 5))
    tl.static_assert(t[::2] == (1, 3, 5))
    tl.static_assert(t[::-1] == (5, 4, 3, 2, 1))
    tl.static_assert(t[3:1:-1] == (4, 3))
    tl.static_assert(t[10:] == ())
    tl.static_assert(t[-10:2] == (1, 2))
    tl.static_assert(t[None:None] == t)
    x = tl.zeros([4, 2, 8], tl.int32)
    y = tl.reshape(x, x.shape[:-1] + [8])
    z = tl.reshape(y, x.shape[:1] + [16])
    tl.store(X + tl.arange(0, 16)[None, :] + tl.arange(0, 4)[:, None] * 16, z)

# CHECK-LABEL: func.func @k(
# CHECK: tile.store {{.*}} : tensor<4x16x!tile.ptr<i32>>
