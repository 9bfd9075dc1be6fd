# tl.load broadcasts the pointer tensor, `mask` and `other` against each
# other, as Triton's load does (broadcast_impl_value): a larger mask or
# `other` widens the pointer tensor; a lower-rank one takes size-1 leading
# dimensions. Stores keep Triton's one-way rule (value and mask to the
# pointer's shape).
# RUN: ln-compile %s --kernel widen --signature '*fp32,i32' -D I=4 -D R=8 -D C=16 \
# RUN:   --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel clash --signature '*fp32,i32' --emit=tile 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CLASH
# RUN: not ln-compile %s --kernel store_wider_mask --signature '*fp32,i32' --emit=tile 2>&1 \
# RUN:   | FileCheck %s --check-prefix=STORE
import triton
import triton.language as tl


# CHECK-LABEL: func.func @widen
# The [1, R, C] pointer tile under an [I, R, C] mask (xformers'
# scaled_index_add backward): the load is [I, R, C].
# CHECK: %[[P:[0-9]+]] = tile.broadcast %{{[0-9]+}} : tensor<1x8x16x!tile.ptr<f32>> -> tensor<4x8x16x!tile.ptr<f32>>
# CHECK: tile.load %[[P]], mask %{{[0-9]+}} : tensor<4x8x16x!tile.ptr<f32>>
# A [R, C] mask under an [I, R, C] pointer tile takes a leading dimension.
# CHECK: tile.expand_dims %{{[0-9]+}}, 0 : tensor<8x16xi1> -> tensor<1x8x16xi1>
# CHECK: tile.load %{{[0-9]+}}, mask %{{[0-9]+}} : tensor<4x8x16x!tile.ptr<f32>>
# `other` of shape [I, 1, C] widens an [R, C] pointer tile to [I, R, C].
# CHECK: tile.load %{{[0-9]+}}, mask %{{[0-9]+}}, other %{{[0-9]+}} : tensor<4x8x16x!tile.ptr<f32>>
@triton.jit
def widen(X, N, I: tl.constexpr, R: tl.constexpr, C: tl.constexpr):
    i = tl.arange(0, I)
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    ptrs = X + r[None, :, None] * C + c[None, None, :]
    mask = (i[:, None, None] < N) & (r[None, :, None] < N) & (c[None, None, :] < N)
    a = tl.load(ptrs, mask=mask)
    tl.static_assert(a.shape == (I, R, C))
    full = X + i[:, None, None] * R * C + r[None, :, None] * C + c[None, None, :]
    b = tl.load(full, mask=(r[:, None] < N) & (c[None, :] < N))
    flat = X + r[:, None] * C + c[None, :]
    d = tl.load(flat, mask=(r[:, None] < N) & (c[None, :] < N),
                other=tl.zeros([I, 1, C], tl.float32))
    tl.static_assert(d.shape == (I, R, C))
    tl.store(full, a + b + d)


@triton.jit
def clash(X, N):
    r = tl.arange(0, 8)
    ptrs = X + r[None, :] + tl.arange(0, 4)[:, None]
    m = tl.arange(0, 2)[:, None] < N
    x = tl.load(ptrs, mask=m)
# CLASH: load-broadcast.py:[[@LINE-1]]:28: error: `mask` of `tl.load` has shape [2, 1], which does not broadcast with the pointer's [4, 8]
    tl.store(ptrs, x)


@triton.jit
def store_wider_mask(X, N):
    r = tl.arange(0, 8)
    tl.store(X + r[None, :], 1.0, mask=(tl.arange(0, 4)[:, None] < N) & (r[None, :] < N))
# STORE: load-broadcast.py:[[@LINE-1]]:40: error: `mask` has shape [4, 8], which does not broadcast to [1, 8]
