# Kernels that store the results of every reduction / scan builtin, to compare
# Triton 3.6 and Kiln on the GPU (same inputs, same launch, then compare the
# output buffers: bitwise for integer outputs and for argmax/argmin indices;
# floating sums and products within a relative tolerance of 1e-5, since the
# two compilers may combine in different orders). No host code here.
#
# Every kernel runs as ONE program: grid (1,), num_warps=4 unless a case says. Inputs are
# contiguous buffers: BLOCK elements (1-D kernels) or BM*BN row-major
# elements (2-D kernels); outputs are contiguous too, sized below. Suggested
# inputs: random integers in [-50, 50] (so int8 cumsums overflow int8 but not
# int32), floats in [-1, 1], plus a case with repeated values (ties) for
# argmax/argmin. Signatures as ln-compile --signature strings, in parameter
# order (constexprs by -D), with the dtypes to run:
#
#   cumsum_1d   (X *T, Out *R)     -D BLOCK -D REVERSE=0|1
#       Out[BLOCK] = tl.cumsum(x, 0, reverse=REVERSE);
#       T,R = i32,i32 | i8,i32 | u8,u32 | i64,i64 | fp32,fp32 | fp16,fp16
#   cumsum_dtype_1d (X *i8, Out *i64) -D BLOCK       cumsum(x, dtype=tl.int64)
#   cumprod_1d  (X *T, Out *T)     -D BLOCK -D REVERSE=0|1   T = i32 | fp32
#   scan_2d     (X *T, Out *T)     -D BM -D BN -D AXIS=0|1 -D REVERSE=0|1
#       Out[BM*BN] = tl.cumsum(x, AXIS, reverse=REVERSE)      T = i32 | fp32
#   scan_tuple_2d (X *fp32, OutV *fp32, OutI *i32) -D BM -D BN -D AXIS=0|1
#       running (max, index of first max) with tl.associative_scan on a tuple
#   reduce_2d   (X *T, Out *T)     -D BM -D BN -D AXIS=0|1
#       Out[BN or BM] = tl.reduce(x, AXIS, product combiner)  T = i32 | fp32
#   argmax_2d   (X *T, Out *i32)   -D BM -D BN -D AXIS=0|1 -D TIE_LEFT=0|1
#   argmin_2d   (X *T, Out *i32)   -D BM -D BN -D AXIS=0|1 -D TIE_LEFT=0|1
#       Out[BN or BM] = indices (keep_dims=True)  T = fp32 | fp16 | i32 | u32
#       (with TIE_LEFT=0 and ties, Triton and Kiln may pick different indices
#       of equal values: compare X[index] instead of the index there)
#   maxmin_idx_1d (X *T, OutV *T, OutI *i32) -D BLOCK
#       OutV[0], OutI[0] = tl.max(x, 0, return_indices=True);
#       OutV[1], OutI[1] = tl.min(x, 0, return_indices=True)   T = fp32 | i32
#   bitwise_2d  (X *T, Out *T)     -D BM -D BN -D AXIS=0|1   T = i32 | u32 | i64
#       Out[0:n] = tl.xor_sum(x, AXIS); Out[n:2n] = tl.reduce_or(x, AXIS),
#       n = BN if AXIS == 0 else BM
#   unsigned_1d (X *T, Out *T)     -D BLOCK                  T = u32 | u64 | u8
#       Out[0] = tl.max(x, 0); Out[1] = tl.min(x, 0); Out[2] = tl.sum(x, 0)
#       (Out as uint32 for u8: Triton widens max/min/sum of uint8)
#   sum_1d      (X *T, Out *T)     -D BLOCK                  T = fp32 | i32
#       Out[0] = tl.sum(x, 0) (with 16 and 32 warps: the partials of 16 or
#       more warps combine across lanes by butterfly)
#
# Suggested sizes: BLOCK = 32, 128, 1024; (BM, BN) = (16, 32), (64, 8),
# (4, 256). scan-kernels.test compiles every kernel to PTX.
import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _running_max(v1, i1, v2, i2):
    keep = v1 >= v2
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@triton.jit
def cumsum_1d(X, Out, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.cumsum(x, 0, reverse=REVERSE))


@triton.jit
def cumsum_dtype_1d(X, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.cumsum(x, 0, dtype=tl.int64))


@triton.jit
def cumprod_1d(X, Out, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.cumprod(x, 0, reverse=REVERSE))


@triton.jit
def scan_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr,
            REVERSE: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.cumsum(x, AXIS, reverse=REVERSE))


@triton.jit
def scan_tuple_2d(X, OutV, OutI, BM: tl.constexpr, BN: tl.constexpr,
                  AXIS: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    offs = rows * BN + cols
    x = tl.load(X + offs)
    if AXIS == 0:
        idx = rows + cols * 0
    else:
        idx = cols + rows * 0
    v, i = tl.associative_scan((x, idx), AXIS, _running_max)
    tl.store(OutV + offs, v)
    tl.store(OutI + offs, i)


@triton.jit
def reduce_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    r = tl.reduce(x, AXIS, _mul)
    if AXIS == 0:
        tl.store(Out + tl.arange(0, BN), r)
    else:
        tl.store(Out + tl.arange(0, BM), r)


@triton.jit
def argmax_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr,
              TIE_LEFT: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    r = tl.argmax(x, AXIS, tie_break_left=TIE_LEFT, keep_dims=True)
    if AXIS == 0:
        tl.store(Out + tl.arange(0, BN)[None, :], r)
    else:
        tl.store(Out + tl.arange(0, BM)[:, None], r)


@triton.jit
def argmin_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr,
              TIE_LEFT: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    r = tl.argmin(x, AXIS, tie_break_left=TIE_LEFT, keep_dims=True)
    if AXIS == 0:
        tl.store(Out + tl.arange(0, BN)[None, :], r)
    else:
        tl.store(Out + tl.arange(0, BM)[:, None], r)


@triton.jit
def maxmin_idx_1d(X, OutV, OutI, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    v, i = tl.max(x, 0, return_indices=True)
    tl.store(OutV, v)
    tl.store(OutI, i)
    v, i = tl.min(x, 0, return_indices=True)
    tl.store(OutV + 1, v)
    tl.store(OutI + 1, i)


@triton.jit
def bitwise_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(X + offs)
    if AXIS == 0:
        o = tl.arange(0, BN)
        tl.store(Out + o, tl.xor_sum(x, 0))
        tl.store(Out + BN + o, x.reduce_or(0))
    else:
        o = tl.arange(0, BM)
        tl.store(Out + o, x.xor_sum(1))
        tl.store(Out + BM + o, tl.reduce_or(x, 1))


@triton.jit
def unsigned_1d(X, Out, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.store(Out, tl.max(x, 0))
    tl.store(Out + 1, tl.min(x, 0))
    tl.store(Out + 2, tl.sum(x, 0))


@triton.jit
def sum_1d(X, Out, BLOCK: tl.constexpr):
    tl.store(Out, tl.sum(tl.load(X + tl.arange(0, BLOCK)), 0))
