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
      the pipelined loop copies A's blocks with TMA through the rank-4 ragged descriptor
"""
# RUN: ln-compile %s --kernel ragged_mm --signature 'tensordesc<fp16[1,1,64,64]>,tensordesc<fp16[64,64]>,tensordesc<fp16[1,1,64,64]>,*fp16:16,*i32:16,*i32:16,i32' -D BM=64 -D BN=64 -D BK=64 --emit=ptx | FileCheck %s
# RUN: ln-compile %s --kernel ragged_scale3 --signature 'tensordesc<fp32[1,1,1,32,64]>,tensordesc<fp32[1,1,1,32,64]>,*fp32:16,*i32:16,*i32:16' -D BM=32 -D BN=64 --emit=ptx -o /dev/null
# B's blocks (a 2-D descriptor) by TMA; A's and C's blocks through the 4-D ragged descriptors
# as bounds-checked vector accesses (Kiln copies blocks of 2-D descriptors only with TMA).
# CHECK: .entry ragged_mm(
# CHECK: cp.async.bulk.tensor.2d
# CHECK-NOT: cp.async.bulk.tensor.4d
# CHECK: wgmma.mma_async
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
