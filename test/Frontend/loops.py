# Loops: carried values through scf.for (tensors, float and int scalars that
# start as constexprs), static unrolling, tl.range with hints, nested loops
# whose bound is the outer induction variable, and a while loop.
# RUN: ln-compile %s --kernel loops --signature '*fp32,*fp32,i32' -D BLOCK=64 \
# RUN:   -D REPS=2 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel uloop --signature '*u32,u32' --emit=tile \
# RUN:   | FileCheck %s --check-prefix=UNSIGNED
import triton
import triton.language as tl


@triton.jit
def loops(X, Y, N, BLOCK: tl.constexpr, REPS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    total = 0.0
    count = 0
    for start in range(0, N, BLOCK):
        x = tl.load(X + start + offs, mask=start + offs < N, other=0.0)
        acc += x
        total += tl.sum(x, axis=0)
        count += 1
    for i in tl.static_range(REPS):
        acc = acc * (i + 1)
    for j in tl.range(2, N, num_stages=3):
        for k in range(j):
            total = total + k
    i = 0
    while i < N:
        i += 4
    tl.store(Y + offs, acc + total + count + i)

# CHECK-LABEL: func.func @loops(
# CHECK-SAME: %[[X:[^:]+]]: !tile.ptr<f32> {tile.name = "X"}, %{{[^:]+}}: !tile.ptr<f32> {tile.name = "Y"}, %[[N:[^:]+]]: i32 {tile.name = "N"})
# `acc`, `count` and `total` are carried; names sort the iter_args.
# CHECK: %[[L1:[^ ]+]]:3 = scf.for %[[START:[^ ]+]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:[^ ]+]] = %{{.*}}, %[[COUNT:[^ ]+]] = %{{.*}}, %[[TOTAL:[^ ]+]] = %{{.*}}) -> (tensor<64xf32>, i32, f32) : i32 {
# CHECK: tile.addptr %[[X]], %[[START]] : !tile.ptr<f32>, i32
# CHECK: %[[XV:[^ ]+]] = tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK: %[[ACC2:[^ ]+]] = arith.addf %[[ACC]], %[[XV]] : tensor<64xf32>
# CHECK: %[[S:[^ ]+]] = tile.sum %[[XV]], 0 : tensor<64xf32> -> f32
# CHECK: %[[TOTAL2:[^ ]+]] = arith.addf %[[TOTAL]], %[[S]] : f32
# CHECK: %[[COUNT2:[^ ]+]] = arith.addi %[[COUNT]], %{{.*}} : i32
# CHECK: scf.yield %[[ACC2]], %[[COUNT2]], %[[TOTAL2]] : tensor<64xf32>, i32, f32
# tl.static_range(2) unrolls with a constexpr i: acc * 1, then acc * 2.
# CHECK: %[[C1:[^ ]+]] = arith.constant dense<1.000000e+00> : tensor<64xf32>
# CHECK: %[[M1:[^ ]+]] = arith.mulf %[[L1]]#0, %[[C1]] : tensor<64xf32>
# CHECK: %[[C2:[^ ]+]] = arith.constant dense<2.000000e+00> : tensor<64xf32>
# CHECK: %[[M2:[^ ]+]] = arith.mulf %[[M1]], %[[C2]] : tensor<64xf32>
# CHECK-NOT: scf.for {{.*}} iter_args({{.*}}tensor<64xf32>
# tl.range(2, N) with a hint; the inner loop runs to the outer induction variable.
# CHECK: %[[C2I:[^ ]+]] = arith.constant 2 : i32
# CHECK: %[[OUT:[^ ]+]] = scf.for %[[J:[^ ]+]] = %[[C2I]] to %[[N]] step %{{.*}} iter_args(%[[T0:[^ ]+]] = %[[L1]]#2) -> (f32) : i32 {
# CHECK: %[[IN:[^ ]+]] = scf.for %[[K:[^ ]+]] = %{{.*}} to %[[J]] step %{{.*}} iter_args(%[[T1:[^ ]+]] = %[[T0]]) -> (f32) : i32 {
# CHECK: %[[KF:[^ ]+]] = arith.sitofp %[[K]] : i32 to f32
# CHECK: arith.addf %[[T1]], %[[KF]] : f32
# CHECK: scf.yield %[[IN]] : f32
# `i = 0` before the while loop becomes an i32 carried value.
# CHECK: %[[W:[^ ]+]] = scf.while (%[[I:[^ ]+]] = %{{.*}}) : (i32) -> i32 {
# CHECK: %[[COND:[^ ]+]] = arith.cmpi slt, %[[I]], %[[N]] : i32
# CHECK: scf.condition(%[[COND]]) %[[I]] : i32
# CHECK: } do {
# CHECK: ^bb0(%[[I2:[^:]+]]: i32):
# CHECK: %[[I3:[^ ]+]] = arith.addi %[[I2]], %{{.*}} : i32
# CHECK: scf.yield %[[I3]] : i32
# CHECK: arith.addf %[[M2]], %{{.*}} : tensor<64xf32>
# CHECK: arith.sitofp %[[L1]]#1 : i32 to f32
# CHECK: arith.sitofp %[[W]] : i32 to f32
# CHECK: tile.store


@triton.jit
def uloop(X, n):
    s = n - n
    for i in range(1, n):
        s += i
    tl.store(X, s)

# uint32 bounds give an unsigned loop.
# UNSIGNED: scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32) : i32 {
