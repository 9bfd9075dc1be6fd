"""Kernels on ragged descriptors (`triton.tools.ragged_tma`: a tensor read and written as batches
of uneven length along one dimension, the rows past a batch's end reading zeros and never
written), run under Triton 3.6 and Kiln by cases_ragged.py. Descriptors come from
create_ragged_descriptor(T, block, ragged_dim); batch b is rows [starts[b], starts[b] + sizes[b])
(batches need not touch: the rows between them must keep their poison). Launch signatures:

  ragged_scale[(B, cdiv(N, BN))](x_desc, y_desc, y, starts, sizes, BM=, BN=)
      x, y: M x N; y's batch rows = x's * 2 + 1 (y: y_desc's tensor, unused by the kernel)
  ragged_scale3[(B, H, cdiv(N, BN))](x_desc, y_desc, y, starts, sizes, BM=, BN=)
      x, y: H x M x N, ragged along dimension 1 (blocks [1, BM, BN])
  ragged_mm[(B, cdiv(max size, BM), cdiv(N, BN))](a_desc, b_desc, c_desc, c, starts, sizes, K,
            BM=, BN=, BK=)
      A (M x K, ragged rows) times B (K x N, a plain descriptor), C's batch rows in A's dtype:
      A's blocks through the rank-4 ragged descriptor, squeezed and pipelined (4-D TMA copies)
  batched_mm[(cdiv(M, BM), cdiv(N, BN), Bt)](a_desc, b_desc, c_desc, c, K, BM=, BN=, BK=)
      Liger's fused-MLP shape: A (Bt x M x K) through a 3-D descriptor of [1, BM, BK] blocks
      reshaped to 2-D for tl.dot, B (K x N) 2-D, C (Bt x M x N) stored as
      reshape(acc, [1, BM, BN]).to(dtype) through a 3-D descriptor
"""
# RUN: ln-compile %s --kernel ragged_mm --signature 'tensordesc<fp16[1,1,64,64],div=16x16x16x16>,tensordesc<fp16[64,64],div=16x16>,tensordesc<fp16[1,1,64,64],div=16x16x16x16>,*fp16:16,*i32:16,*i32:16,i32' -D BM=64 -D BN=64 -D BK=64 --emit=ptx | FileCheck %s
# RUN: ln-compile %s --kernel batched_mm --signature 'tensordesc<bf16[1,128,64],div=16x16x16>,tensordesc<bf16[64,128],div=16x16>,tensordesc<bf16[1,128,128],div=16x16x16>,*bf16:16,i32' -D BM=128 -D BN=128 -D BK=64 --num-warps 8 --emit=tile-layout | FileCheck %s --check-prefix=BMM
# The [1, BM, BK] block is loaded squeezed, and the kernel's reshape to 2-D cancels: the loop
# copies it into slots with a 3-D TMA copy (a coordinate per dimension of the descriptor, a box
# of the whole block) and tl.dot reads them; the store is squeezed too (its value, a cast of the
# reshaped accumulator, is cast before the reshape), so no 3-D tile is exchanged.
# BMM-LABEL: func.func @batched_mm(
# BMM-SAME: %arg18: !llvm.ptr {tile.name = "a_desc.tensormap", tile.tensormap = 0 : i64, tile.tma_box = array<i64: 1, 128, 64>, tile.tma_swizzle = 128 : i64}
# BMM: tile.tma_copy %arg18[%{{.*}}, %{{.*}}, %c0_i32] into %{{.*}} -> <3x128x64xbf16, barriers>
# BMM: scf.for
# BMM: %[[A:.*]] = tile.local_load %{{.*}} : <3x128x64xbf16, barriers> -> tensor<128x64xbf16, #{{.*}}>
# BMM-NOT: tile.reshape
# BMM: tile.dot %[[A]]
# BMM-NOT: tensor<1x128x128
# BMM: tile.store %{{.*}} coords[%{{.*}}, %{{.*}}, %{{.*}}] {descArg = 10 : i64} : tensor<128x128x!tile.ptr<bf16>, #{{.*}}>
# RUN: ln-compile %s --kernel ragged_scale3 --signature 'tensordesc<fp32[1,1,1,32,64]>,tensordesc<fp32[1,1,1,32,64]>,*fp32:16,*i32:16,*i32:16' -D BM=32 -D BN=64 --emit=ptx -o /dev/null
# B's blocks (a 2-D descriptor) by TMA; A's blocks through the 4-D ragged descriptor squeezed to
# 2-D and copied by 4-D TMA copies into the pipeline's slots (no per-thread copies), C's stored
# as 16-byte vectors.
# CHECK: .entry ragged_mm(
# CHECK-NOT: cp.async.cg.shared.global
# CHECK-DAG: cp.async.bulk.tensor.2d
# CHECK-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
# CHECK: wgmma.mma_async
# CHECK: st.global.v4.b32
import triton
import triton.language as tl
from triton.tools.ragged_tma import load_ragged, store_ragged


@triton.jit
def ragged_scale(x_desc, y_desc, y, starts, sizes, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(starts + b)
    size = tl.load(sizes + b)
    col = tl.program_id(1) * BN
    for m in range(0, size, BM):
        t = load_ragged(x_desc, start, size, [m, col])
        store_ragged(y_desc, start, size, [m, col], t * 2 + 1)


@triton.jit
def ragged_scale3(x_desc, y_desc, y, starts, sizes, BM: tl.constexpr, BN: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    start = tl.load(starts + b)
    size = tl.load(sizes + b)
    col = tl.program_id(2) * BN
    for m in range(0, size, BM):
        t = load_ragged(x_desc, start, size, [h, m, col], ragged_dim=1)
        store_ragged(y_desc, start, size, [h, m, col], t * 2 + 1, ragged_dim=1)


@triton.jit
def ragged_mm(a_desc, b_desc, c_desc, c, starts, sizes, K, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr):
    g = tl.program_id(0)
    start = tl.load(starts + g)
    size = tl.load(sizes + g)
    m = tl.program_id(1) * BM
    if m < size:
        n = tl.program_id(2) * BN
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, K, BK):
            a = load_ragged(a_desc, start, size, [m, k])
            acc = tl.dot(a, b_desc.load([k, n]), acc)
        store_ragged(c_desc, start, size, [m, n], acc.to(c.dtype.element_ty))


@triton.jit
def batched_mm(a_desc, b_desc, c_desc, c, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    b = tl.program_id(2)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.reshape(a_desc.load([b, m, k]), [BM, BK])
        acc = tl.dot(a, b_desc.load([k, n]), acc)
    out = tl.reshape(acc, [1, BM, BN])
    c_desc.store([b, m, n], out.to(c_desc.dtype))
