# mma.sync reads a staged B (16-bit, in shared memory) two n-tiles at a time,
# as Triton does: one ldmatrix.x4 gives a thread's fragments of the tiles at
# columns n and n + d (d: the distance between the thread's tiles, 8 on one
# warp, 16 when 2 warps split N); a thread with one n-tile reads it alone
# (x2). A is read by ldmatrix.x4 either way (2 K steps of 16 here).
# RUN: ln-compile %s --kernel mm --signature '*bf16:16,*bf16:16,*fp32:16,64' \
# RUN:   --num-warps 1 | FileCheck %s --check-prefix=W1
# RUN: ln-compile %s --kernel mm --signature '*bf16:16,*bf16:16,*fp32:16,32' \
# RUN:   --num-warps 2 | FileCheck %s --check-prefix=W2
# RUN: ln-compile %s --kernel mm --signature '*bf16:16,*bf16:16,*fp32:16,16' \
# RUN:   --num-warps 2 | FileCheck %s --check-prefix=ONE
# 8 tiles of 8 columns, 2 K steps: 4 pairs per step.
# W1-NOT: ldmatrix.sync.aligned.m8n8.x2
# W1-COUNT-8: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# W1-NOT: ldmatrix
# W2-NOT: ldmatrix.sync.aligned.m8n8.x2
# W2-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# W2-NOT: ldmatrix.sync.aligned.m8n8.x2
# One 8-column tile per warp: x2.
# ONE-COUNT-2: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
# ONE-NOT: ldmatrix.sync.aligned.m8n8.x4.trans
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    offs_m = tl.arange(0, 16)
    offs_k = tl.arange(0, 32)
    offs_n = tl.arange(0, N)
    a = tl.load(a_ptr + offs_m[:, None] * 32 + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c)
