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
