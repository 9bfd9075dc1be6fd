# Warp groups that split N (#tile.mma version 3): on sm_90, 8 warps on a
# 64-row accumulator are two warp groups, each owning 64 rows and half of the
# columns, as Triton arranges them (warpsPerCTA [4, 2]). Each group issues its
# own wgmma of N / 2 columns and reads B from its column block: B's rows
# further (K-major B) or whole panels further (N-major B). Before, such dots
# ran as mma.sync (warps split 2 x 4).
#
# RUN: ln-compile %s --kernel nn --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' -D BN=128 \
# RUN:   --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=NN
# RUN: ln-compile %s --kernel nn --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' -D BN=128 \
# RUN:   --num-warps 8 --emit=ptx | FileCheck %s --check-prefix=NNPTX
# RUN: ln-compile %s --kernel nt --signature '*bf16:16,*bf16:16,*fp32:16,i32:16' -D BN=256 \
# RUN:   --num-warps 16 --emit=ptx | FileCheck %s --check-prefix=NT16
# RUN: ln-compile %s --kernel nt --signature '*fp32:16,*fp32:16,*fp32:16,i32:16' -D BN=64 \
# RUN:   --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=TF32
# RUN: ln-compile %s --kernel nt --signature '*fp32:16,*fp32:16,*fp32:16,i32:16' -D BN=64 \
# RUN:   --num-warps 8 --emit=ptx | FileCheck %s --check-prefix=TF32PTX
# RUN: ln-compile %s --kernel nn --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' -D BN=64 \
# RUN:   --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=NARROW
# RUN: ln-compile %s --kernel nn --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' -D BN=128 \
# RUN:   --num-warps 8 --arch sm_80 --emit=tile-layout | FileCheck %s --check-prefix=SM80
# RUN: ln-compile %s --kernel row_max --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=ROWS
import triton
import triton.language as tl

# N-major B (K x N, N contiguous): 64 columns per group, one 128-byte panel.
# NN: #mma = #tile.mma<version = 3, warpsPerCTA = [4, 2]>
# NN: tile.dot {{.*}}tile.wgmma_pending = 1 : i32} {{.*}} -> tensor<64x128xf32, #mma>
# NNPTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
# NNPTX-NOT: mma.sync
# NNPTX-NOT: m64n128k16

@triton.jit
def nn(A, B, C, K, BN: tl.constexpr):
    rm = tl.arange(0, 64)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, 32)
    acc = tl.zeros((64, BN), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


# K-major B (an N x K tensor read transposed): 16 warps on 64 x 256 are four
# groups of 64 columns.
# NT16: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
# NT16-NOT: mma.sync
# tf32 operands, both K-major: 32 columns per group (a K-major B's block needs
# only whole 8-row groups).
# TF32: #mma = #tile.mma<version = 3, warpsPerCTA = [4, 2]>
# TF32: tile.local_alloc : <3x32x64xf32, transposed>
# TF32PTX: wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32
# TF32PTX-NOT: mma.sync
@triton.jit
def nt(A, B, C, K, BN: tl.constexpr):
    rm = tl.arange(0, 64)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, 32)
    acc = tl.zeros((64, BN), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + rn[None, :] * K + (k + rk)[:, None])
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


# An N-major 16-bit B of 32 columns per group would start inside a panel: the
# warps stay on mma.sync, as before. So do they before sm_90.
# NARROW: #mma = #tile.mma<version = 2, warpsPerCTA = [{{[0-9]+}}, {{[0-9]+}}]>
# SM80: #mma = #tile.mma<version = 2, warpsPerCTA = [{{[0-9]+}}, {{[0-9]+}}]>


# A product whose rows are reduced in its loop (attention's scores) keeps
# whole rows per set of warps rather than splitting N between groups, which
# would exchange partial maxima through shared memory every iteration.
# ROWS: #mma = #tile.mma<version = 2,
@triton.jit
def row_max(A, B, C, K):
    rm = tl.arange(0, 64)
    rn = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    m = tl.full((64,), float("-inf"), tl.float32)
    for k in range(0, K, 32):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * 128 + rn[None, :])
        s = tl.dot(a, b)
        m = tl.maximum(m, tl.max(s, axis=1))
    tl.store(C + rm, m)
