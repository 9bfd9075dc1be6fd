# If statements: runtime conditions become scf.if with the reassigned names
# yielded from both branches (an elif chain nests), constexpr conditions pick a
# branch at compile time, `return` in a runtime if moves the rest of the
# function into the else branch, helper returns on several paths are merged,
# conditional expressions and `and` on runtime scalars.
# RUN: ln-compile %s --kernel branches --signature '*fp32,*fp32,i32' -D MODE=1 \
# RUN:   --emit=tile | FileCheck %s --check-prefixes=CHECK,MODE1
# RUN: ln-compile %s --kernel branches --signature '*fp32,*fp32,i32,0' \
# RUN:   --emit=tile | FileCheck %s --check-prefixes=CHECK,MODE0
import triton
import triton.language as tl


@triton.jit
def pick(x, flag):
    if flag > 0:
        return x * 2
    return x + 1


@triton.jit
def branches(X, Y, N, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= N:
        return
    x = tl.load(X + pid)
    if x > 0:
        y = x * 2.0
        z = 1
    elif x < -1.0:
        y = -x
        z = 2
    else:
        y = x
        z = 3
    if MODE == 1:
        y = y + 1.0
    else:
        y = y - 1.0
    w = y if MODE == 1 else -y
    v = x if pid > 2 and N < 10 else w
    tl.store(Y + pid, pick(v, z) + z)

# CHECK-LABEL: func.func @branches(
# CHECK: %[[PID:[^ ]+]] = tile.program_id 0
# CHECK: %[[OOB:[^ ]+]] = arith.cmpi sge, %[[PID]], %{{.*}} : i32
# CHECK: scf.if %[[OOB]] {
# CHECK-NEXT: } else {
# CHECK: %[[X:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<f32>
# CHECK: %[[POS:[^ ]+]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
# CHECK: %[[YZ:[^ ]+]]:2 = scf.if %[[POS]] -> (f32, i32) {
# CHECK: %[[Y1:[^ ]+]] = arith.mulf %[[X]], %{{.*}} : f32
# CHECK: scf.yield %[[Y1]], %{{.*}} : f32, i32
# CHECK: } else {
# CHECK: %[[NEG:[^ ]+]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
# CHECK: %[[INNER:[^ ]+]]:2 = scf.if %[[NEG]] -> (f32, i32) {
# CHECK: arith.negf %[[X]] : f32
# CHECK: } else {
# CHECK: scf.yield %[[X]], %{{.*}} : f32, i32
# CHECK: scf.yield %[[INNER]]#0, %[[INNER]]#1 : f32, i32
# The constexpr `if MODE == 1` leaves no scf.if behind.
# MODE1: %[[YM:[^ ]+]] = arith.addf %[[YZ]]#0, %{{.*}} : f32
# MODE0: %[[YM:[^ ]+]] = arith.subf %[[YZ]]#0, %{{.*}} : f32
# MODE0: %[[W:[^ ]+]] = arith.negf %[[YM]] : f32
# `x if pid > 2 and N < 10 else w` on runtime values.
# CHECK: %[[A:[^ ]+]] = arith.cmpi sgt, %[[PID]], %{{.*}} : i32
# CHECK: %[[B:[^ ]+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
# CHECK: %[[AB:[^ ]+]] = arith.andi %[[A]], %[[B]] : i1
# CHECK: %[[V:[^ ]+]] = scf.if %[[AB]] -> (f32) {
# CHECK: scf.yield %[[X]] : f32
# CHECK: } else {
# MODE1: scf.yield %[[YM]] : f32
# MODE0: scf.yield %[[W]] : f32
# The inlined helper returns on two paths: its results are yielded.
# CHECK: %[[F:[^ ]+]] = arith.cmpi sgt, %[[YZ]]#1, %{{.*}} : i32
# CHECK: %[[P:[^ ]+]] = scf.if %[[F]] -> (f32) {
# CHECK: arith.mulf %[[V]], %{{.*}} : f32
# CHECK: } else {
# CHECK: arith.addf %[[V]], %{{.*}} : f32
# CHECK: %[[ZF:[^ ]+]] = arith.sitofp %[[YZ]]#1 : i32 to f32
# CHECK: %[[R:[^ ]+]] = arith.addf %[[P]], %[[ZF]] : f32
# CHECK: tile.store %{{.*}}, %[[R]] : !tile.ptr<f32>
# CHECK: }
# CHECK-NEXT: return
