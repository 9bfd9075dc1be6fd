# A name reassigned in a loop and read only in the iteration that assigned it
# (`offs_k` below, as the fused-attention backward's `offs_m`) is carried by
# the scf.for although nothing reads the carried value. --tile-pipeline-loops
# drops such iter args first: before, `offs_k`, computed from `k` (which the
# copies of `S + offs_k` need one iteration ahead), was a value of the
# carried-ahead iteration used outside the copies, so the loop's companion
# load of S stayed a load in the loop; now it is copied into its slots as the
# fused-attention backward's M and D are by Triton.
# RUN: ln-compile %s --kernel scaled_k_loop --signature '*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16' \
# RUN:   --emit=tile-layout | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def scaled_k_loop(A, B, S, C, K):
    m = tl.arange(0, 64)
    n = tl.arange(0, 64)
    offs_k = tl.arange(0, 32)
    k = 0
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for _ in range(0, K, 32):
        offs_k = k + tl.arange(0, 32)
        s = tl.load(S + offs_k)
        a = tl.load(A + m[:, None] * K + offs_k[None, :])
        b = tl.load(B + offs_k[:, None] * 64 + n[None, :])
        acc = tl.dot((a * s[None, :]).to(tl.float16), b, acc)
        k += 32
    tl.store(C + m[:, None] * 64 + n[None, :], acc)


# CHECK-LABEL: func.func @scaled_k_loop
# CHECK: tile.local_alloc : <3x1x32xf32>
# The loop carries the accumulator, k, the slot indices: not offs_k.
# CHECK: scf.for {{.*}} iter_args({{[^)]*}}) -> (tensor<64x64xf32, #mma>, i32, i32, i32)
# CHECK: tile.async_copy {{.*}} -> <3x1x32xf32>
# CHECK: scf.yield
