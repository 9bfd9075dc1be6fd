# A K-loop operand loaded as rows and transposed (`desc.load([...]).T`, the
# fused-attention tutorial's K; `tl.load(p).T` likewise). On sm_90 a host
# descriptor's block is copied by TMA as the tensor stores it (a slot of
# 64 rows of K), and wgmma reads that slot transposed in place (B K-major);
# elsewhere tile-sink-trans-into-load turns it into a load of the transposed
# shape, which the pipeline puts in a transposed slot. Either way no staging
# through registers (before, the tile went slot -> registers -> staged again,
# with two more barriers per iteration).
# RUN: ln-compile %s --kernel qk_desc \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel qk_desc \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
# Shared memory: Q's slot (8 KB), K's 3 slots (24 KB) and their 3 mbarriers;
# no scratch for the dot, which reads K^T from its slot (none is reserved to
# stage it, as mma.sync would).
# RUN: ln-compile %s --kernel qk_desc \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=llvm-dialect | FileCheck %s --check-prefix=SMEM
# SMEM: tile.shared_bytes = 32800 : i32
# RUN: ln-compile %s --kernel qk_desc --arch sm_80 \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=SM80
# A tile used both as it is and transposed (the fused-attention backward's
# Q^T and dO: `tl.dot(k, qT)` and `tl.dot(ds, tl.trans(qT))`) is pipelined
# into one slot, which both wgmmas read in place: the transposed use with
# the other majorness (B's transpose field 1 for one, 0 for the other).
# RUN: ln-compile %s --kernel both_ways \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=BOTH
# RUN: ln-compile %s --kernel both_ways \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=BOTHPTX
import triton
import triton.language as tl


@triton.jit
def qk_desc(desc_q, desc_k, out, N):
    q = desc_q.load([0, 0])
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for start in range(0, N, 64):
        k = desc_k.load([start, 0]).T
        acc += tl.dot(q, k)
    r = tl.arange(0, 64)
    tl.store(out + r[:, None] * 64 + r[None, :], acc)


# CHECK-LABEL: func.func @qk_desc
# CHECK-SAME: %arg10: !llvm.ptr {tile.name = "desc_k.tensormap", tile.tensormap = 4 : i64, tile.tma_box = array<i64: 64, 64>, tile.tma_swizzle = 128 : i64}
# CHECK: scf.for
# CHECK: tile.tma_wait
# CHECK: %[[K:.*]] = tile.local_load %{{.*}} : <3x64x64xf16, barriers> -> tensor<64x64xf16, #{{.*}}>
# CHECK-NEXT: %[[KT:.*]] = tile.trans %[[K]], [1, 0]
# CHECK-NEXT: tile.dot %{{.*}}, %[[KT]], %{{.*}} {tile.wgmma_pending = 1 : i32}
# CHECK: scf.yield

# The TMA copies, then one wgmma chain per iteration that reads K from the
# slot (B K-major: transpose field 0).
# PTX-LABEL: .entry qk_desc
# PTX: .param .align 64 .b8 qk_desc_param_10[128]
# PTX: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
# PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;

# SM80-LABEL: func.func @qk_desc
# SM80-NOT: tensormap
# SM80: scf.for
# SM80: %[[K:.*]] = tile.local_load %{{.*}} : <3x64x64xf16, transposed> -> tensor<64x64xf16, #{{.*}}>
# SM80-NEXT: tile.dot %{{.*}}, %[[K]], %{{.*}}
# SM80-NOT: tile.trans
# SM80: scf.yield


@triton.jit
def both_ways(K, Q, DS, out, stride, n):
    r64 = tl.arange(0, 64)
    r32 = tl.arange(0, 32)
    k = tl.load(K + r64[:, None] * 64 + r64[None, :])
    ds = tl.load(DS + r64[:, None] * 32 + r32[None, :])
    a = tl.zeros([64, 32], dtype=tl.float32)
    b = tl.zeros([64, 64], dtype=tl.float32)
    qt_ptrs = Q + r32[None, :] * stride + r64[:, None]
    for i in range(n):
        qt = tl.load(qt_ptrs)
        a += tl.dot(k, qt)
        b += tl.dot(ds, tl.trans(qt))
        qt_ptrs += 32 * stride
    tl.store(out + r64[:, None] * 32 + r32[None, :], a)
    tl.store(out + 4096 + r64[:, None] * 64 + r64[None, :], b)


# BOTH-LABEL: func.func @both_ways
# BOTH: scf.for
# BOTH: %[[QT:.*]] = tile.local_load %{{.*}} : <{{[0-9]}}x64x32xf16, transposed>
# BOTH: tile.dot %{{.*}}, %[[QT]], %{{.*}}
# BOTH: %[[Q:.*]] = tile.trans %[[QT]], [1, 0]
# BOTH: tile.dot %{{.*}}, %[[Q]], %{{.*}}
# BOTH: scf.yield

# No staging in the loop: the copies, then the wgmmas reading the slot.
# BOTHPTX-LABEL: .entry both_ways
# BOTHPTX: cp.async.cg.shared.global
# BOTHPTX-NOT: st.shared
# BOTHPTX: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
# BOTHPTX-NOT: st.shared
# BOTHPTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
