# tl.atomic_max / atomic_min on fp32 / fp64 (Triton's way: on the bits, a
# signed max where the value is non-negative, an unsigned min where it is
# negative; min the other way round) and on unsigned integers (umax / umin).
# RUN: ln-compile %s --kernel k --signature '*fp32,*u32,*fp64' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp32,*u32,*fp64' -D BLOCK=128 \
# RUN:   --emit=ptx | FileCheck --check-prefix=PTX %s
import triton
import triton.language as tl


@triton.jit
def k(F, U, D, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(F + offs)
    tl.atomic_max(F + BLOCK + offs, x, mask=offs < 100)
    tl.atomic_min(F, 0.5)
    u = tl.load(U + offs)
    tl.atomic_max(U + BLOCK + offs, u)
    tl.atomic_min(U, 7)
    tl.atomic_max(D, 1.5, sem="relaxed")

# CHECK-LABEL: func.func @k(
# CHECK: tile.atomic_rmw max %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<128x!tile.ptr<f32>
# CHECK: tile.atomic_rmw min %{{.*}}, %{{.*}} : !tile.ptr<f32>
# CHECK: tile.atomic_rmw umax %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<i32>
# CHECK: tile.atomic_rmw umin %{{.*}}, %{{.*}} : !tile.ptr<i32>
# CHECK: tile.atomic_rmw max %{{.*}}, %{{.*}} {sem = "relaxed"} : !tile.ptr<f64>

# PTX: setp.num.f32 num, %r{{[0-9]+}}, %r{{[0-9]+}}; setp.ge.s32 pos, %r{{[0-9]+}}, 0; setp.lt.s32 neg, %r{{[0-9]+}}, 0; and.pred pos, pos, num; and.pred neg, neg, num; and.pred pos, pos, %p{{[0-9]+}}; and.pred neg, neg, %p{{[0-9]+}}; @pos atom.global.gpu.acq_rel.max.s32 %r{{[0-9]+}}, [ %rd{{[0-9]+}} + 0 ], %r{{[0-9]+}}; @neg atom.global.gpu.acq_rel.min.u32
# PTX: @neg atom.global.gpu.acq_rel.max.u32
# PTX: atom.global.gpu.acq_rel.max.u32
# PTX: atom.global.gpu.acq_rel.min.u32
# PTX: setp.num.f64 num, %rd{{[0-9]+}}, %rd{{[0-9]+}}; setp.ge.s64 pos, %rd{{[0-9]+}}, 0; {{.*}} @pos atom.global.gpu.relaxed.max.s64 {{.*}} @neg atom.global.gpu.relaxed.min.u64
