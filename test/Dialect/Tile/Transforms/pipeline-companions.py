# --tile-pipeline-loops beyond plain operand loads (mamba's SSD kernels):
#  - an A loaded M-contiguous is copied into a transposed slot (K rows of M),
#    read by ldmatrix.x4.trans (mma.sync) or by wgmma as M-major;
#  - the loop's other loads start ahead too: float tiles (1-D as a 1 x N
#    slot) are copied into slots and read back in their own layout, or straight
#    into the layout they are converted to; fp32 scalars too (as a row of four
#    copies), other scalars are carried in registers;
#  - a barrier before the prologue lets the scratch of a dot before the loop
#    share the slots' bytes;
#  - on sm_90, a computed B is staged by the dot for wgmma, and an A computed
#    in the accumulator layout is wgmma's register operand.
# The kernels are test/gpu/dot_kernels.py's, which the GPU dot family runs
# against Triton; `tn` below is the plain M-major K loop.
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_scaled_kloop --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32,1,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --arch sm_80 --emit=tile-layout | FileCheck %s --check-prefix=SCALED
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_scaled_kloop --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32,1,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --arch sm_80 | FileCheck %s --check-prefix=SCALEDPTX
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_computed_a_causal --signature '*fp32:16,*fp32:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --emit=tile-layout | FileCheck %s --check-prefix=READAS
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_computed_a_causal --signature '*fp32:16,*fp32:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --emit=llvm-dialect | FileCheck %s --check-prefix=SMEM
# RUN: ln-compile %s --kernel tn --signature '*fp16:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   -D BM=128 -D BN=128 -D BK=32 | FileCheck %s --check-prefix=TN90
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_scaled_kloop --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32,1,i32:16' \
# RUN:   -D BM=128 -D BN=64 -D BK=32 | FileCheck %s --check-prefix=STAGED90
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_computed_a_causal --signature '*fp32:16,*fp32:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   -D BM=128 -D BN=64 -D BK=32 --emit=tile-layout | FileCheck %s --check-prefix=REGA90
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_computed_a_causal --signature '*fp32:16,*fp32:16,*fp16:16,*fp32:16,i32:16' \
# RUN:   -D BM=128 -D BN=64 -D BK=32 | FileCheck %s --check-prefix=REGA90PTX
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_gathered_rows --num-warps 2 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,i32,i32:16,i32:16,i32,i32:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 -D TOP_K=2 -D SCALED=True --emit=tile-layout | FileCheck %s --check-prefix=GATHERED
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_paged_kloop --num-stages 3 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp32:16,*i32:16,i32:16,i32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --emit=tile-layout | FileCheck %s --check-prefix=PAGED
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_block_mmajor --signature '*fp16:16,*fp16:16,*fp32:16' \
# RUN:   -D BM=128 -D BN=64 -D BK=32 | FileCheck %s --check-prefix=ONCE90
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_block_mmajor --signature '*fp16:16,*fp16:16,*fp32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --arch sm_80 | FileCheck %s --check-prefix=ONCE80
# RUN: ln-compile %s --kernel scalar_other --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 --emit=tile-layout | FileCheck %s --check-prefix=OTHERONE
# RUN: ln-compile %s --kernel big_companion --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,i32:16' \
# RUN:   -D BM=64 -D BN=64 -D BK=32 -D BX=65536 --emit=tile-layout | FileCheck %s --check-prefix=BIG

# mamba's chunk state: A (x^T) M-contiguous, B scaled in fp32 by a vector and
# a scalar loaded in the loop. Three slots of each tile, the vector's as one
# row, the scalar's as a row of four copies of it (a slot row is 16 bytes),
# read back as one of them: no value is carried in registers.
# SCALED-LABEL: func.func @dot_scaled_kloop
# SCALED: %[[A:[0-9]+]] = tile.local_alloc : <3x64x32xf16, transposed>
# SCALED-NEXT: %[[B:[0-9]+]] = tile.local_alloc : <3x32x64xf16>
# SCALED-NEXT: %[[S:[0-9]+]] = tile.local_alloc : <3x1x32xf32>
# SCALED-NEXT: %[[T:[0-9]+]] = tile.local_alloc : <3x1x4xf32>
# SCALED-NEXT: tile.barrier
# SCALED: tile.async_copy {{.*}} into %[[S]][%c0_i32{{.*}}] : tensor<32x!tile.ptr<f32>, {{.*}}> -> <3x1x32xf32>
# SCALED: tile.async_copy {{.*}} into %[[T]][%c0_i32{{.*}}] : tensor<4x!tile.ptr<f32>, {{.*}}>, tensor<4xi1, {{.*}}> -> <3x1x4xf32>
# SCALED: scf.for {{.*}} iter_args(%{{.*}}, %[[COPY:arg[0-9]+]] = %c2_i32, %[[READ:arg[0-9]+]] = %c0_i32{{.*}}) -> (tensor<64x64xf32, #{{.*}}>, i32, i32)
# SCALED: tile.async_copy {{.*}} into %[[A]][%[[COPY]]]
# SCALED: tile.async_copy {{.*}} into %[[B]][%[[COPY]]]
# SCALED: tile.async_copy {{.*}} into %[[S]][%[[COPY]]]
# SCALED: tile.async_copy {{.*}} into %[[T]][%[[COPY]]]
# SCALED: tile.local_load %[[A]][%[[READ]]] : <3x64x32xf16, transposed> -> tensor<64x32xf16
# SCALED: tile.local_load %[[B]][%[[READ]]] : <3x32x64xf16> -> tensor<32x64xf16
# SCALED: tile.local_load %[[S]][%[[READ]]] : <3x1x32xf32> -> tensor<32xf32
# SCALED: %[[T4:[0-9]+]] = tile.local_load %[[T]][%[[READ]]] : <3x1x4xf32> -> tensor<4xf32
# SCALED-NEXT: %[[TI:[0-9]+]] = tile.reduce(%[[T4]]) axis = 0
# SCALED: tile.splat %[[TI]] : f32
# SCALED: tile.dot
# SCALED: scf.yield
# SCALED-NOT: tile.load

# The transposed A slot is read with ldmatrix.x4.trans; the vector's copies
# move 4 bytes each.
# SCALEDPTX: cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 4, %r{{[0-9]+}};
# SCALEDPTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# SCALEDPTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

# mamba's chunk scan: the fp32 cb tile is scaled in the accumulator layout
# (its row factors also scale the product before the loop), so its slot is
# read straight into #mma: no exchange through the scratch in the loop.
# READAS-LABEL: func.func @dot_computed_a_causal
# READAS: tile.dot
# READAS: tile.barrier
# READAS: scf.for
# READAS-NOT: tile.convert_layout
# READAS: tile.local_load %{{[0-9]+}}[%{{.*}}] : <3x64x32xf32> -> tensor<64x32xf32, #mma>
# READAS-NOT: tile.convert_layout
# READAS: tile.dot %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<64x32xf16, #mma>
# READAS: scf.yield

# The dot before the loop stages 16 KB of operands; the barrier fences it from
# the prologue's copies, so the slots (3 x (8 + 4 + 0.125) KB, each buffer
# 1024-byte aligned) start at 0: 36.4 KB, not 52.
# SMEM: tile.shared_bytes = 37248 : i32

# sm_90: both operands in slots, A M-major: wgmma with A's transpose field 1.
# TN90-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
# TN90-NOT: ldmatrix

# sm_90, 128 rows on 4 warps: the scaled B is staged by the dot into swizzled
# shared memory (16-byte stores), fenced for the async proxy, and read by
# wgmma through a descriptor, as Triton does; A from its M-major slot.
# STAGED90: st.shared.v4.b32
# STAGED90: fence.proxy.async.shared::cta;
# STAGED90-NEXT: // end inline asm
# STAGED90-NEXT: bar.sync 0;
# STAGED90: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 1, 1;
# STAGED90-NOT: mma.sync.aligned
# STAGED90-NOT: ldmatrix

# A computed in the accumulator layout (warps all along M) is wgmma's register
# A: no staging, and the products stay in flight into the next iteration.
# REGA90: #mma = #tile.mma<version = 2, warpsPerCTA = [4, 1]>
# REGA90: scf.for
# REGA90: tile.dot %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} {tile.wgmma_pending = 1 : i32} : tensor<128x32xf16, #mma>
# REGA90: tile.dot_wait
# REGA90PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;

# Outside any loop an M-contiguous A is staged by the dot as K rows of M
# (16-byte stores): wgmma reads it M-major through a descriptor; mma.sync
# (sm_80) with ldmatrix.x4.trans.
# ONCE90: st.shared.v4.b32
# ONCE90: fence.proxy.async.shared::cta;
# ONCE90-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 1, 1;
# ONCE80: st.shared.v4.b32
# ONCE80: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# ONCE80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
import triton
import triton.language as tl


@triton.jit
def tn(A, B, C, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] + (k0 + rk)[None, :] * BM)
        b = tl.load(B + (k0 + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)

# vLLM's fused MoE on 2 warps: its 64 slot ids (one per thread) keep their own
# coalesced layout (PinnedAccesses.h), so the per-row scales gathered through
# them in the K loop are a 1-D blocked load; their slots are one row each
# (they were taken for transposed columns, and the slot type was refused).
# GATHERED: tile.local_alloc : <3x1x64xf32>

# Paged attention's pattern: B's rows come through a page table loaded in the
# K loop. The table load joins stage 0 (run two iterations ahead with the
# copies that need it, predicated on its iteration being in the loop), so
# both operands go to 3-slot buffers: the prologue loads the table for
# iterations 0 and 1, the loop for iteration i + 2 before its copies.
# PAGED: tile.local_alloc : <3x64x32xf16>
# PAGED: tile.local_alloc : <3x32x64xf16>
# PAGED: tile.load {{.*}} : tensor<32x!tile.ptr<i32>
# PAGED: tile.async_copy
# PAGED: tile.load {{.*}} : tensor<32x!tile.ptr<i32>
# PAGED: tile.async_copy
# PAGED: scf.for
# PAGED: tile.load {{.*}} : tensor<32x!tile.ptr<i32>
# PAGED: tile.async_copy {{.*}} -> <3x32x64xf16>
# PAGED: tile.dot


# A companion tile too large for two slots (256 KB): the loop is pipelined
# with the dot's operands alone, and the fp32 scalar, made a tile of four
# copies for the first try, is a scalar load again.
# BIG-LABEL: func.func @big_companion
# BIG-NOT: tensor<4x!tile.ptr<f32>
# BIG: scf.for
# BIG: tile.local_load
# BIG: tile.load %{{[0-9]+}} : !tile.ptr<f32>
# BIG-NOT: tensor<4x!tile.ptr<f32>
# BIG: tile.load %{{[0-9]+}} : tensor<65536x!tile.ptr<f32>
# BIG: tile.dot
# BIG-NOT: tensor<4x!tile.ptr<f32>
@triton.jit
def big_companion(A, B, C, S, X, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  BX: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rx = tl.arange(0, BX)
    acc = tl.zeros((BM, BN), tl.float32)
    tot = tl.zeros((BX,), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        s = tl.load(S + k)
        x = tl.load(X + k * BX + rx)
        acc += tl.dot(a, b) * s
        tot += x
    tl.store(C + rm[:, None] * BN + rn[None, :], acc + tl.sum(tot))


# A masked fp32 scalar whose `other` is 1.0: a copy would leave 0.0 in the
# masked case, so it is loaded ahead into registers, carried by the loop.
# OTHERONE-LABEL: func.func @scalar_other
# OTHERONE-NOT: tensor<4x!tile.ptr<f32>
# OTHERONE: %[[S0:[0-9]+]] = tile.load %{{[0-9]+}}, mask %{{[0-9]+}}, other %{{.*}} : !tile.ptr<f32>
# OTHERONE: scf.for {{.*}} -> (tensor<64x64xf32, #{{.*}}>, f32, f32, i32, i32)
# OTHERONE-NOT: tensor<4x!tile.ptr<f32>
@triton.jit
def scalar_other(A, B, C, S, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        s = tl.load(S + k // BK, mask=k < K - BK, other=1.0)
        acc += tl.dot(a, b) * s
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)
