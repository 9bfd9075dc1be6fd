# Forms from Triton's own language tests (python/test/unit/language):
# expand_dims with several axes normalized against the result's rank,
# `None:` / `:None` slices, tl.squeeze / tl.unsqueeze, tl.random.X, None for
# cache_modifier / eviction_policy (Triton's defaults). The static_asserts
# check the shapes while compiling.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp32' -D N=32 --emit=tile \
# RUN:   | FileCheck %s
# RUN: ln-compile %S/Inputs/triton-unit-forms-errors.py --kernel k \
# RUN:   --signature '*fp32' -D N=32 --emit=tile --verify-diagnostics \
# RUN:   --split-input-file
import triton
import triton.language as tl

@triton.jit
def k(X, Y, N: tl.constexpr):
    off = tl.arange(0, N)
    x = tl.load(X + off, cache_modifier=None, eviction_policy=None)
    t = tl.expand_dims(off, (-4, 2, -1))
    tl.static_assert(t.shape == [1, N, 1, 1])
    t = tl.expand_dims(off, (3, 1, 2))
    tl.static_assert(t.shape == [N, 1, 1, 1])
    d = off[None, None:]
    tl.static_assert(d.shape == [1, N])
    d = off[None, :None]
    u = tl.unsqueeze(x, 0)
    tl.static_assert(u.shape == [1, N])
    s = tl.squeeze(u, 0)
    tl.static_assert(s.shape == [N])
    r = tl.random.randint(7, off)
    tl.store(Y + off, s + r.to(tl.float32))


# CHECK-LABEL: func.func @k
# CHECK: tile.load %{{.*}} : tensor<32x!tile.ptr<f32>>
# CHECK: tile.reshape %{{.*}} : tensor<32xf32> -> tensor<1x32xf32>
# The squeeze of that unsqueeze is the loaded tensor itself (reshapes compose).
# CHECK-NOT: tile.reshape %{{.*}} : tensor<1x32xf32> -> tensor<32xf32>
# CHECK: arith.addf %{{.*}} : tensor<32xf32>


# A one-element tensor as an `if` / `while` condition is its element
# (Triton's test_unsplat).
# RUN: ln-compile %s --kernel unsplat_if --signature '*i32' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=UNSPLAT
@triton.jit
def unsplat_if(x):
    condition = tl.load(x + tl.arange(0, 1)) > 42
    if condition:
        tl.store(x, 42)

# UNSPLAT-LABEL: func.func @unsplat_if
# UNSPLAT: %[[C:.*]] = arith.cmpi sgt, %{{.*}} : tensor<1xi32>
# UNSPLAT: %[[S:.*]] = tile.reduce(%[[C]]) axis = 0
# UNSPLAT: scf.if %[[S]]
