# A K-loop operand loaded as rows and transposed (`desc.load([...]).T`, the
# fused-attention tutorial's K; `tl.load(p).T` likewise): tile-sink-trans-
# into-load turns it into a load of the transposed shape, which the
# pipeline puts in a transposed slot that wgmma reads directly (its B
# operand K-major). Without it the tile went slot -> registers -> staged
# again, with two more barriers per iteration.
# RUN: ln-compile %s --kernel qk_desc \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel qk_desc \
# RUN:   --signature 'tensordesc<fp16[64,64],div=1x16>,tensordesc<fp16[64,64],div=1x16>,*fp32:16,i32:16' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
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
# CHECK: scf.for
# CHECK: %[[K:.*]] = tile.local_load %{{.*}} : <3x64x64xf16, transposed> -> tensor<64x64xf16, #{{.*}}>
# CHECK-NEXT: tile.dot %{{.*}}, %[[K]], %{{.*}}
# CHECK-NOT: tile.trans
# CHECK: scf.yield

# The 16-byte copies of the K tile, then one wgmma chain per iteration that
# reads it K-major from the slot (B's transpose field 0).
# PTX-LABEL: .entry qk_desc
# PTX: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16
# PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;


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
