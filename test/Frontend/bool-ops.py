# `and` / `or` as Triton evaluates them: a constexpr that decides the result
# is the result, even after runtime operands, and the operands after it are
# never evaluated (`if is_lead and not SKIP:` with SKIP is a constexpr False
# `if`: its body, which reads a name bound only when not SKIP, is not
# generated); other constexprs drop out. A pointer as a condition tests it
# against null. A loop's iterator class may be chosen by a constexpr
# condition. (sglang's kernels, compile-only sweep.)
# RUN: ln-compile %s --kernel shortcut --signature '*fp32:16,i32' -D SKIP=True \
# RUN:   --emit=tile | FileCheck %s --check-prefix=SKIPPED
# RUN: ln-compile %s --kernel shortcut --signature '*fp32:16,i32' -D SKIP=False \
# RUN:   --emit=tile | FileCheck %s --check-prefix=KEEP
# RUN: ln-compile %s --kernel optional_ptr --signature '*i32:16,*i32:16' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=PTR
# RUN: ln-compile %s --kernel optional_ptr --signature '*i32:16,none' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=NOPTR
# RUN: ln-compile %s --kernel chosen_range --signature '*fp32:16' -D N=2 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=UNROLL
# RUN: ln-compile %s --kernel chosen_range --signature '*fp32:16' -D N=8 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel inductor_libdevice --signature '*fp32:16,*fp32:16' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=INDUCTOR
import triton
import triton.language as tl
from torch._inductor.runtime.triton_helpers import libdevice


@triton.jit
def shortcut(X, n, SKIP: tl.constexpr):
    pid = tl.program_id(0)
    is_lead = pid == 0
    if not SKIP:
        z = tl.load(X)
    if is_lead and not SKIP:
        tl.store(X + 1, z)
    # `or` with a true constexpr is that constexpr: the store is unconditional.
    if pid < n or True:
        tl.store(X + 2, 2.0)
    # A true constexpr in `and` drops out: one comparison, no constant.
    if pid < n and True:
        tl.store(X + 3, 3.0)


# SKIPPED-LABEL: func.func @shortcut
# SKIPPED-NOT: tile.load
# SKIPPED: %[[C2:.*]] = tile.addptr %arg0, %c2_i32
# SKIPPED-NOT: scf.if
# SKIPPED: tile.store %[[C2]]
# SKIPPED: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %arg1 : i32
# SKIPPED-NEXT: scf.if %[[LT]] {
# SKIPPED: tile.addptr %arg0, %c3_i32
# KEEP-LABEL: func.func @shortcut
# KEEP: %[[LEAD:.*]] = arith.cmpi eq
# KEEP: %[[Z:.*]] = tile.load %arg0
# KEEP: scf.if %[[LEAD]] {
# KEEP: tile.store %{{.*}}, %[[Z]]


@triton.jit
def optional_ptr(Out, Start):
    pid = tl.program_id(0)
    start = 0
    if Start:
        start = tl.load(Start + pid)
    tl.store(Out + pid, start)


# PTR-LABEL: func.func @optional_ptr
# PTR: %[[ADDR:.*]] = tile.ptr_cast %arg1 : !tile.ptr<i32> -> i64
# PTR: %[[SET:.*]] = arith.cmpi ne, %[[ADDR]], %c0_i64 : i64
# PTR: scf.if %[[SET]] -> (i32)
# NOPTR-LABEL: func.func @optional_ptr
# NOPTR-NOT: scf.if
# NOPTR-NOT: tile.load


@triton.jit
def chosen_range(X, N: tl.constexpr):
    offs = tl.arange(0, 64)
    acc = tl.zeros([64], dtype=tl.float32)
    for i in (tl.static_range if N <= 4 else range)(N):
        acc += tl.load(X + i * 64 + offs)
    tl.store(X + offs, acc)


# UNROLL-LABEL: func.func @chosen_range
# UNROLL-NOT: scf.for
# UNROLL-COUNT-2: tile.load
# UNROLL-NOT: tile.load
# LOOP-LABEL: func.func @chosen_range
# LOOP: scf.for %{{.*}} = %c0_i32 to %c8_i32 step %c1_i32
# LOOP-COUNT-1: tile.load


@triton.jit
def inductor_libdevice(X, Y):
    # Inductor's triton_helpers re-exports libdevice (vLLM imports it there).
    offs = tl.arange(0, 64)
    x = tl.load(X + offs)
    tl.store(Y + offs, libdevice.isnan(x).to(tl.float32))


# INDUCTOR-LABEL: func.func @inductor_libdevice
# INDUCTOR: tile.extern_elementwise "__nv_isnanf"
