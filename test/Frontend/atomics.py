# Atomics: a scalar spin lock (`while tl.atomic_cas(...) == 1: pass` becomes
# scf.while), scalar read-modify-writes whose result is used, masked tensor
# atomics, values converted to the element type, Triton's sem / scope (the
# defaults acq_rel / gpu are not printed).
# RUN: ln-compile %s --kernel atomics --signature '*i32,*i32,*fp32,*fp16,i32' \
# RUN:   -D BLOCK=128 --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def atomics(Lock, Counts, Sums, Vals, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    # Scalar spin lock around a scalar critical section.
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    old = tl.atomic_add(Counts + pid, 1)
    tl.atomic_max(Counts + 1, old)
    tl.atomic_min(Counts + 2, old, sem="acq_rel", scope="gpu")
    tl.atomic_xchg(Lock, 0)
    # Tensor atomics, masked, with a value converted to the element type.
    v = tl.load(Vals + offs, mask=mask, other=0)
    tl.atomic_add(Sums + offs, v, mask=mask)
    prev = tl.atomic_xchg(Sums + offs, 0.0, mask=mask)
    tl.atomic_or(Counts + offs, 1, mask=mask)
    tl.atomic_cas(Counts + offs, 0, offs)
    tl.store(Vals + offs, prev.to(tl.float16), mask=mask)
    tl.atomic_add(Sums + offs, v, mask=mask, sem="relaxed")
    tl.atomic_cas(Lock, 0, 1, sem="acquire", scope="sys")
    tl.atomic_xchg(Lock, 0, sem="release", scope="cta")

# CHECK-LABEL: func.func @atomics(
# CHECK-SAME: %[[LOCK:[^:]+]]: !tile.ptr<i32> {tile.name = "Lock"}, %[[COUNTS:[^:]+]]: !tile.ptr<i32> {tile.name = "Counts"}, %[[SUMS:[^:]+]]: !tile.ptr<f32> {tile.name = "Sums"}
# CHECK: %[[MASK:[^ ]+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
# CHECK: scf.while : () -> () {
# CHECK: %[[OLD:[^ ]+]] = tile.atomic_cas %[[LOCK]], %{{.*}}, %{{.*}} : !tile.ptr<i32>
# CHECK: %[[HELD:[^ ]+]] = arith.cmpi eq, %[[OLD]], %{{.*}} : i32
# CHECK: scf.condition(%[[HELD]])
# CHECK: } do {
# CHECK-NEXT: scf.yield
# CHECK-NEXT: }
# CHECK: %[[MINE:[^ ]+]] = tile.addptr %[[COUNTS]], %{{.*}} : !tile.ptr<i32>, i32
# CHECK: %[[PREV:[^ ]+]] = tile.atomic_rmw add %[[MINE]], %{{.*}} : !tile.ptr<i32>
# CHECK: tile.atomic_rmw max %{{.*}}, %[[PREV]] : !tile.ptr<i32>
# CHECK: tile.atomic_rmw min %{{.*}}, %[[PREV]] : !tile.ptr<i32>
# CHECK: tile.atomic_rmw xchg %[[LOCK]], %{{.*}} : !tile.ptr<i32>
# CHECK: %[[V:[^ ]+]] = tile.load %{{.*}}, mask %[[MASK]], other %{{.*}} : tensor<128x!tile.ptr<f16>>
# CHECK: %[[VF:[^ ]+]] = arith.extf %[[V]] : tensor<128xf16> to tensor<128xf32>
# CHECK: tile.atomic_rmw add %{{.*}}, %[[VF]], mask %[[MASK]] : tensor<128x!tile.ptr<f32>>
# CHECK: %[[ZERO:[^ ]+]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
# CHECK: %[[X:[^ ]+]] = tile.atomic_rmw xchg %{{.*}}, %[[ZERO]], mask %[[MASK]] : tensor<128x!tile.ptr<f32>>
# CHECK: tile.atomic_rmw or %{{.*}}, %{{.*}}, mask %[[MASK]] : tensor<128x!tile.ptr<i32>>
# CHECK: tile.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<i32>>
# CHECK: %[[H:[^ ]+]] = arith.truncf %[[X]] : tensor<128xf32> to tensor<128xf16>
# CHECK: tile.store %{{.*}}, %[[H]], mask %[[MASK]] : tensor<128x!tile.ptr<f16>>
# CHECK: tile.atomic_rmw add %{{.*}}, %{{.*}}, mask %[[MASK]] {sem = "relaxed"} : tensor<128x!tile.ptr<f32>>
# CHECK: tile.atomic_cas %[[LOCK]], %{{.*}}, %{{.*}} {scope = "sys", sem = "acquire"} : !tile.ptr<i32>
# CHECK: tile.atomic_rmw xchg %[[LOCK]], %{{.*}} {scope = "cta", sem = "release"} : !tile.ptr<i32>
