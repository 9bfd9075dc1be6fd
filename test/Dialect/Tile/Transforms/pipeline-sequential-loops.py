# Two pipelined K loops one after the other (attention's backward: a dK/dV
# loop, then a dQ loop): the second loop's slots may reuse the bytes of the
# first loop's slots and of its invariant operands, whose lives have ended.
# Each loop asks for 5 stages of 32 KB (160 KB of the 227 KB): before, the
# second loop's budget counted the first loop's 160 KB and it was not
# pipelined at all; now both run at 5 stages and the lowering places the
# second loop's slots over the first's (shared memory is the larger loop's,
# not the sum).
# RUN: ln-compile %s --kernel two_loops --num-stages 5 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel two_loops --num-stages 5 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' --emit=llvm-dialect | FileCheck %s --check-prefix=SMEM
import triton
import triton.language as tl


@triton.jit
def two_loops(A, B, out, K):
    m = tl.arange(0, 128)
    n = tl.arange(0, 128)
    k = tl.arange(0, 64)
    acc = tl.zeros([128, 128], dtype=tl.float32)
    for i in range(0, K, 64):
        a = tl.load(A + m[:, None] * K + (i + k)[None, :])
        b = tl.load(B + (i + k)[:, None] * 128 + n[None, :])
        acc = tl.dot(a, b, acc)
    acc2 = tl.zeros([128, 128], dtype=tl.float32)
    for i in range(0, K, 64):
        b = tl.load(B + (i + k)[:, None] * 128 + n[None, :])
        a = tl.load(A + m[:, None] * K + (i + k)[None, :])
        acc2 = tl.dot(a, b, acc2)
    tl.store(out + m[:, None] * 128 + n[None, :], acc + acc2)


# CHECK-LABEL: func.func @two_loops
# CHECK: tile.local_alloc : <5x128x64xf16>
# CHECK: tile.local_alloc : <5x64x128xf16>
# CHECK: scf.for
# CHECK: tile.async_copy
# CHECK: tile.local_alloc : <5x64x128xf16>
# CHECK: tile.local_alloc : <5x128x64xf16>
# CHECK: scf.for
# CHECK: tile.async_copy
# 5 stages of 32 KB: 160 KB, less than the two loops' 320 KB.
# SMEM: tile.shared_bytes = 163840 : i32}
