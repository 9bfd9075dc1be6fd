# Rows not proven 4-byte aligned (an unspecialized i32 stride) cannot be
# copied by cp.async: --tile-pipeline-loops then stages the dot operands
# through one slot each at a single point after the last of them. With two
# dots in sequence (attention's S = Q K^T, then P V) the first dot reads K
# before V is loaded: K alone is staged (before that dot) and V stays a load
# its dot stages itself. Staging both after V made the first dot read a slot
# not yet written (an operand that did not dominate its use).
# RUN: ln-compile %s --kernel two_dots --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32,i32' \
# RUN:   --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel two_dots --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32,i32' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
import triton
import triton.language as tl


@triton.jit
def two_dots(Q, K, V, out, stride, n):
    r = tl.arange(0, 64)
    q = tl.load(Q + r[:, None] * 64 + r[None, :])
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for i in range(n):
        k = tl.load(K + i * 64 * stride + r[None, :] * stride + r[:, None])
        s = tl.dot(q, k)
        p = tl.exp(s).to(tl.float16)
        v = tl.load(V + i * 64 * stride + r[:, None] * stride + r[None, :])
        acc = tl.dot(p, v, acc)
    tl.store(out + r[:, None] * 64 + r[None, :], acc)


# CHECK-LABEL: func.func @two_dots
# CHECK: scf.for
# CHECK: %[[K:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>
# CHECK: tile.barrier
# CHECK: tile.local_store %[[K]] into %[[SLOT:.*]][%{{.*}}]
# CHECK: %[[KS:.*]] = tile.local_load %[[SLOT]]
# CHECK-NEXT: tile.dot %{{.*}}, %[[KS]], %{{.*}}
# CHECK: %[[V:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>
# CHECK-NOT: tile.local_store
# CHECK: tile.dot %{{.*}}, %[[V]], %{{.*}}
# CHECK: scf.yield

# PTX-LABEL: .entry two_dots
# PTX: wgmma.mma_async
