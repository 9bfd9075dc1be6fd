# Kernels that store the results of tl.sort, tl.bitonic_merge, tl.topk, tl.flip, tl.gather,
# tl.histogram and tl.swizzle2d, to compare Triton 3.6 and Kiln on the GPU
# (same inputs, same launch, outputs compared bitwise). No host code here.
#
# Every kernel runs as ONE program: grid (1,), num_warps=4. Inputs and outputs
# are contiguous buffers: BLOCK elements (1-D kernels) or BM*BN row-major
# elements (2-D kernels), sized below. Signatures as ln-compile --signature
# strings, in parameter order (constexprs by -D), with the dtypes to run:
#
#   sort_1d     (X *T, Out *T)          -D BLOCK -D DESC=0|1
#       Out[BLOCK] = tl.sort(x, descending=DESC)
#       T = fp32 | fp16 | bf16 | fp64 | i8 | u8 | i16 | i32 | u32 | i64
#   sort_2d     (X *T, Out *T)          -D BM -D BN -D DESC=0|1
#       Out[BM*BN] = tl.sort(x, dim=1, descending=DESC)  (every row sorted)
#   merge_2d    (X *T, Out *T)          -D BM -D BN -D DESC=0|1 -D SORTED=0|1
#       Out[BM*BN] = tl.bitonic_merge(x, descending=DESC) of every row, x the
#       input (any order: the network's output) or tl.topk(x, BN) of it
#   topk_2d     (X *T, Out *T)          -D BM -D BN -D K
#       Out[BM*K] = tl.topk(x, K): the K largest of each row, largest first
#       T = fp32 | i32 | u32 (narrower types widen when K < BN, see docs)
#   flip_2d     (X *T, Out *T)          -D BM -D BN -D DIM=0|1|-1
#       Out[BM*BN] = tl.flip(x, DIM)     T = fp32 | fp16 | i8 | i64
#   gather_2d   (X *T, I *IT, Out *T)   -D BM -D BN -D BK -D AXIS=0|1
#       AXIS=1: index [BM, BK] (I holds BM*BK values in [0, BN)), Out [BM, BK]
#       AXIS=0: index [BK, BN] (I holds BK*BN values in [0, BM)), Out [BK, BN]
#       Out = tl.gather(x, index, AXIS)  T = fp32 | fp16 | i8 | i64, IT = i32 | i64 | u8
#   histogram_1d (X *IT, Out *i32)      -D BLOCK -D BINS -D MASKED=0|1
#       Out[BINS] = tl.histogram(x, BINS, mask=(arange % 3 != 0) if MASKED)
#       IT = i32; values in [0, BINS) (also edge bins 0 and BINS-1 often)
#   histogram_oob_1d (X *i32, Out *i32) -D BLOCK -D BINS
#       the same with values outside [0, BINS) too: implementation-defined in
#       Triton (its NVIDIA lowering bins the low bits); Kiln does the same
#   swizzle2d_2d (OutI *i32, OutJ *i32) -D SI -D SJ -D SG
#       (OutI, OutJ)[SI*SJ] = tl.swizzle2d(i, j, SI, SJ, SG) over the SI x SJ grid
#   softmax_2d  (X *fp32, Out *fp32)    -D BM -D BN -D DIM=0|1
#       Out[BM*BN] = tl.softmax(x, dim=DIM, keep_dims=True) (sums may associate
#       differently: compare with a relative tolerance)
#   philox_impl_1d (C *u32, Out *u32)   -D BLOCK
#       Out[4*BLOCK] = the four words of tl.philox_impl(c, c ^ 1, c * 3, 7,
#       c + 11, c * 5, n_rounds=7)
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: ln-compile %s --kernel sort_1d --signature '*fp32,*fp32' -D BLOCK=1024 -D DESC=0 --emit=ptx -o %t/a.ptx
# RUN: FileCheck %s --check-prefix=SORT1 --input-file=%t/a.ptx
# RUN: ln-compile %s --kernel sort_1d --signature '*u8,*u8' -D BLOCK=128 -D DESC=1 --emit=ptx -o %t/b.ptx
# RUN: ln-compile %s --kernel sort_1d --signature '*bf16,*bf16' -D BLOCK=32 -D DESC=0 --emit=ptx -o %t/b2.ptx
# RUN: ln-compile %s --kernel sort_1d --signature '*i64,*i64' -D BLOCK=256 -D DESC=1 --emit=ptx -o %t/b3.ptx
# RUN: ln-compile %s --kernel sort_2d --signature '*fp16,*fp16' -D BM=4 -D BN=256 -D DESC=1 --emit=ptx -o %t/c.ptx
# RUN: ln-compile %s --kernel topk_2d --signature '*fp32,*fp32' -D BM=16 -D BN=64 -D K=8 --emit=ptx -o %t/d.ptx
# RUN: ln-compile %s --kernel flip_2d --signature '*i8,*i8' -D BM=16 -D BN=32 -D DIM=0 --emit=ptx -o %t/e.ptx
# RUN: ln-compile %s --kernel gather_2d --signature '*fp32,*i64,*fp32' -D BM=16 -D BN=64 -D BK=32 -D AXIS=1 --emit=ptx -o %t/f.ptx
# RUN: ln-compile %s --kernel gather_2d --signature '*i8,*u8,*i8' -D BM=64 -D BN=16 -D BK=8 -D AXIS=0 --emit=ptx -o %t/g.ptx
# RUN: ln-compile %s --kernel histogram_1d --signature '*i32,*i32' -D BLOCK=1024 -D BINS=64 -D MASKED=1 --emit=ptx -o %t/h.ptx
# RUN: FileCheck %s --check-prefix=HIST --input-file=%t/h.ptx
# RUN: ln-compile %s --kernel histogram_oob_1d --signature '*i32,*i32' -D BLOCK=256 -D BINS=8 --emit=ptx -o %t/i.ptx
# RUN: ln-compile %s --kernel swizzle2d_2d --signature '*i32,*i32' -D SI=8 -D SJ=4 -D SG=3 --emit=ptx -o %t/j.ptx
# RUN: ln-compile %s --kernel softmax_2d --signature '*fp32,*fp32' -D BM=16 -D BN=64 -D DIM=1 --emit=ptx -o %t/k.ptx
# RUN: ln-compile %s --kernel philox_impl_1d --signature '*u32,*u32' -D BLOCK=128 --emit=ptx -o %t/l.ptx
# RUN: ln-compile %s --kernel merge_2d --signature '*u8,*u8' -D BM=16 -D BN=32 -D DESC=0 -D SORTED=0 --emit=ptx -o %t/m.ptx
# SORT1: .entry sort_1d
# SORT1: shfl.sync.bfly.b32
# SORT1: bar.sync
# HIST: .entry histogram_1d
# HIST: atom.shared.add.u32
import triton
import triton.language as tl


@triton.jit
def sort_1d(X, Out, BLOCK: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.sort(x, descending=DESC))


@triton.jit
def sort_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.sort(x, dim=1, descending=DESC))


@triton.jit
def merge_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, DESC: tl.constexpr,
             SORTED: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    if SORTED:
        x = tl.topk(x, BN)  # descending rows: bitonic, the merge sorts them
    tl.store(Out + offs, tl.bitonic_merge(x, descending=DESC))


@triton.jit
def topk_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    x = tl.load(X + rows * BN + tl.arange(0, BN)[None, :])
    tl.store(Out + rows * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def flip_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, DIM: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.flip(x, DIM))


@triton.jit
def gather_2d(X, I, Out, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              AXIS: tl.constexpr):
    x = tl.load(X + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    if AXIS == 1:
        offs = tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :]
    else:
        offs = tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :]
    index = tl.load(I + offs)
    tl.store(Out + offs, tl.gather(x, index, AXIS))


@triton.jit
def histogram_1d(X, Out, BLOCK: tl.constexpr, BINS: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if MASKED:
        h = tl.histogram(x, BINS, mask=offs % 3 != 0)
    else:
        h = tl.histogram(x, BINS)
    tl.store(Out + tl.arange(0, BINS), h)


@triton.jit
def histogram_oob_1d(X, Out, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Out + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def swizzle2d_2d(OutI, OutJ, SI: tl.constexpr, SJ: tl.constexpr, SG: tl.constexpr):
    i = tl.arange(0, SI)[:, None] + tl.zeros([SI, SJ], tl.int32)
    j = tl.arange(0, SJ)[None, :] + tl.zeros([SI, SJ], tl.int32)
    new_i, new_j = tl.swizzle2d(i, j, SI, SJ, SG)
    offs = tl.arange(0, SI)[:, None] * SJ + tl.arange(0, SJ)[None, :]
    tl.store(OutI + offs, new_i)
    tl.store(OutJ + offs, new_j)


@triton.jit
def softmax_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, DIM: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.softmax(x, dim=DIM, keep_dims=True))


@triton.jit
def philox_impl_1d(C, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c = tl.load(C + offs)
    a, b, d, e = tl.philox_impl(c, c ^ 1, c * 3, c * 0 + 7, c + 11, c * 5, n_rounds=7)
    tl.store(Out + offs, a)
    tl.store(Out + BLOCK + offs, b)
    tl.store(Out + 2 * BLOCK + offs, d)
    tl.store(Out + 3 * BLOCK + offs, e)
