# Shared memory by liveness (lib/Conversion/TileToLLVM/SharedMemoryPlan.cpp),
# read from the tile.shared_bytes module attribute.
# RUN: ln-compile %S/Inputs/attention_fwd.py --kernel attention -D BLOCK_M=128 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' --num-warps 8 \
# RUN:   --emit=llvm-dialect | FileCheck %s --check-prefix=ATTN
# RUN: ln-compile %S/Inputs/attention_fwd.py --kernel attention -D BLOCK_M=128 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' --num-warps 8 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=COPY
# RUN: ln-compile %s --kernel reduce_first --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' \
# RUN:   --num-warps 8 --emit=llvm-dialect | FileCheck %s --check-prefix=FIRST
import triton
import triton.language as tl

# The attention forward of test/Conversion/Inputs/attention_fwd.py, 128 query rows.
# Q (128x64 f16, 16 KB, copied once) and 3 slots each of K^T and V (8 KB
# each) are live together: 64 KB. The epilogue's exchange of the 128x64
# result for the store (its own 18 KB of scratch) runs after the loop, so it
# reuses those bytes: 64 KB in all, not 82.
# ATTN: tile.shared_bytes = 65536 : i32

# The K^T tile (64 x 64) shares its layout variable with the 128 x 64 mask
# `keys[None, :]` feeds, whose layout would leave half of its lanes holding
# copies; the pipeliner recomputes the copies' pointers and masks in a layout
# sized for the tile (8 x 4 lanes of 8-element runs along K), no copies.
# COPY-DAG: #[[KT:blocked[0-9]*]] = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
# COPY: tile.async_copy {{.*}} : tensor<64x64x!tile.ptr<f16>, #[[KT]]>, tensor<64x64xi1, #[[KT]]> -> <3x64x64xf16, transposed>


# A scratch user before the buffers (the column sums of a 128x64 tile,
# exchanged across the 8 warps: 2 KB) is not fenced from the copies into the
# one-slot buffer of q (copied where it is loaded, no barrier): the buffers
# then start after its scratch (1024-byte aligned), 2 + 64 KB. The
# epilogue's exchange after the loop still shares the buffers' bytes.
# FIRST: tile.shared_bytes = 67584 : i32


@triton.jit
def reduce_first(Q, K, V, O, N):
    rows = tl.arange(0, 128)
    dims = tl.arange(0, 64)
    cols = tl.arange(0, 64)
    x = tl.load(O + rows[:, None] * 64 + dims[None, :]).to(tl.float32)
    bias = tl.sum(x, 0)
    q = tl.load(Q + rows[:, None] * 64 + dims[None, :])
    acc = tl.zeros((128, 64), dtype=tl.float32)
    for start in range(0, N, 64):
        keys = start + cols
        kt = tl.load(K + keys[None, :] * 64 + dims[:, None])
        v = tl.load(V + keys[:, None] * 64 + dims[None, :])
        p = tl.dot(q, kt).to(tl.float16)
        acc = tl.dot(p, v, acc)
    tl.store(O + rows[:, None] * 64 + dims[None, :], (acc + bias[None, :]).to(tl.float16))
