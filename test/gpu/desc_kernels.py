# Tensor-descriptor kernels (tl.make_tensor_descriptor, desc.load/store,
# tl.load/store_tensor_descriptor, desc.atomic_add) to compare Triton 3.6 and
# Kiln on the GPU: same inputs, same launch, outputs compared bitwise
# (cases_desc.py). Triton lowers them to TMA on the H100 (its runs need
# triton.set_allocator); Kiln to masked vector accesses. No host code here.
#
# Signatures as ln-compile --signature strings (constexprs by -D):
#
#   desc_copy  (X *T, Y *T, M i32, N i32, sx i64, sy i64)  -D BM -D BN -D NAN
#       grid (cdiv(M, BM) + 1, cdiv(N, BN) + 1): Y[M, N] = X[M, N] * 2 where
#       the extra row/column of programs only touch out-of-bounds blocks.
#       Out-of-bounds elements are not stored. (Triton's TMA store on the
#       H100 does write the columns up to the next 16-byte boundary of the
#       row, e.g. columns 77-79 of a 77-wide fp32 tensor: cases_desc.py
#       compares [M, N] with Triton and checks Kiln leaves the rest alone.)
#   desc_tiles (X *T, Out *T, M i32, N i32, sx i64)  -D BM -D BN -D NAN
#       grid (cdiv(M, BM), cdiv(N, BN)); Out is dense [grid0*BM, grid1*BN]:
#       every tile loaded through the descriptor, padding included, is
#       stored whole with tl.store (so the padding is compared too; a TMA
#       load's NaN is 0x7FF7 in each 16-bit half, and Kiln's is the same).
#   desc_rowsum (X *i32, Out *i32, M i32, K i32, sx i64)  -D BM -D BK
#       grid (cdiv(M, BM),); Out[M] = row sums of X[M, K], the descriptor
#       passed to a @triton.jit helper inside a `for` loop (integers: the
#       sums are exact whatever the order).
#   host_copy  (x_desc tensordesc<T[BM,BN]>, y_desc tensordesc<T[BM,BN]>)
#       -D BM -D BN: host TensorDescriptor parameters; grid (cdiv(M, BM) + 1,
#       cdiv(N, BN) + 1): y = x * 2 block by block, as desc_copy.
#   desc_hist  (Idx *i32, Cnt *i32, n i32, bins i32)  -D B
#       grid (cdiv(n, B),); Cnt[bins] += 1 at each Idx (desc.atomic_add on a
#       rank-1 descriptor of the counters, one block per program at 0).
# RUN: ln-compile %s --kernel desc_copy --signature '*fp16,*fp16,i32,i32,i64,i64' -D BM=16 -D BN=32 -D NAN=1 --emit=ptx | FileCheck %s --check-prefix=CP
# RUN: ln-compile %s --kernel desc_tiles --signature '*fp32,*fp32,i32,i32,i64' -D BM=16 -D BN=32 -D NAN=0 --emit=ptx | FileCheck %s --check-prefix=TL
# RUN: ln-compile %s --kernel desc_rowsum --signature '*i32,*i32,i32,i32,i64' -D BM=32 -D BK=64 --emit=ptx | FileCheck %s --check-prefix=RS
# RUN: ln-compile %s --kernel desc_hist --signature '*i32,*i32,i32,i32' -D B=128 --emit=ptx | FileCheck %s --check-prefix=HI
# CP: .entry desc_copy
# TL: .entry desc_tiles
# RS: .entry desc_rowsum
# RUN: ln-compile %s --kernel host_copy --signature 'tensordesc<fp16[16,32],nan>,tensordesc<fp16[16,32]>' -D BM=16 -D BN=32 --emit=ptx | FileCheck %s --check-prefix=HC
# HI: .entry desc_hist
# HC: .entry host_copy
# HI: atom.global
import triton
import triton.language as tl


@triton.jit
def desc_copy(X, Y, M, N, sx, sy, BM: tl.constexpr, BN: tl.constexpr,
              NAN: tl.constexpr):
    pad: tl.constexpr = "nan" if NAN else "zero"
    x = tl.make_tensor_descriptor(X, [M, N], [sx, 1], [BM, BN], padding_option=pad)
    y = tl.make_tensor_descriptor(Y, [M, N], [sy, 1], [BM, BN])
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    y.store([m, n], x.load([m, n]) * 2)


@triton.jit
def desc_tiles(X, Out, M, N, sx, BM: tl.constexpr, BN: tl.constexpr,
               NAN: tl.constexpr):
    pad: tl.constexpr = "nan" if NAN else "zero"
    x = tl.make_tensor_descriptor(X, [M, N], [sx, 1], [BM, BN], padding_option=pad)
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = tl.load_tensor_descriptor(x, [pm * BM, pn * BN])
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    width = tl.num_programs(1) * BN
    tl.store(Out + rows[:, None] * width + cols[None, :], t)


@triton.jit
def _tile(desc, r, k):
    return desc.load([r, k])


@triton.jit
def desc_rowsum(X, Out, M, K, sx, BM: tl.constexpr, BK: tl.constexpr):
    x = tl.make_tensor_descriptor(X, [M, K], [sx, 1], [BM, BK])
    r = tl.program_id(0) * BM
    acc = tl.zeros([BM], dtype=tl.int32)
    for k in range(0, K, BK):
        acc += tl.sum(_tile(x, r, k), axis=1)
    out = tl.make_tensor_descriptor(Out, [M], [1], [BM])
    out.store([r], acc)


@triton.jit
def desc_hist(Idx, Cnt, n, bins, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    idx = tl.load(Idx + offs, mask=offs < n, other=-1)
    c = tl.make_tensor_descriptor(Cnt, [bins], [1], [B])
    # One block of counters at 0: bins <= B; indices outside [0, bins) are
    # masked by the descriptor's bounds.
    ones = tl.where(tl.arange(0, B)[:, None] == idx[None, :], 1, 0)
    c.atomic_add([0], tl.sum(ones, axis=1).to(tl.int32))


@triton.jit
def host_copy(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    y_desc.store([m, n], x_desc.load([m, n]) * 2)
