# Kernels that store the result of every shape builtin, to compare Triton 3.6
# and Kiln on the GPU (same inputs, same launch, output buffers compared
# bitwise; for tl.cat and tl.view, which Triton may reorder, the sorted
# outputs are compared). No host code here.
#
# Every kernel runs as ONE program: grid (1,), num_warps=4. Inputs and
# outputs are contiguous row-major buffers of the shapes below. T is any of
# the dtypes the cases run: int8, int16, int32, int64, fp16, bf16, fp32.
# Signatures as ln-compile --signature strings, in parameter order
# (constexprs by -D):
#
#   trans_2d      (X *T, Out *T)        -D BM -D BN    Out[BN, BM] = tl.trans(x[BM, BN])
#   trans_method_2d (X *T, Out *T, Out2 *T) -D BM -D BN  Out = x.trans(), Out2 = x.T
#   permute_3d    (X *T, Out *T)        -D A -D B -D C -D D0 -D D1 -D D2
#       Out[shape of y] = tl.permute(x[A, B, C], D0, D1, D2)
#   reshape_2d    (X *T, Out *T)        -D BM -D BN -D RM -D RN
#       Out[RM, RN] = tl.reshape(x[BM, BN], RM, RN) + row index (new coordinates)
#   reshape_3d    (X *T, Out *T)        -D A -D B -D C -D RM -D RN
#       Out[RM, RN] = x[A, B, C].reshape((RM, RN))
#   view_2d       (X *T, Out *T)        -D BM -D BN    Out[BN, BM] = tl.view(x, BN, BM)
#   ravel_3d      (X *T, Out *T)        -D A -D B -D C Out[A*B*C] = tl.ravel(x)
#   join_2d       (X *T, Y *T, Out *T)  -D BM -D BN    Out[BM, BN, 2] = tl.join(x, y)
#   join_bcast    (X *T, Y *T, Out *T)  -D BM -D BN    tl.join(x[BM, 1], y[1, BN])
#   split_3d      (X *T, OutA *T, OutB *T) -D BM -D BN a, b = tl.split(x[BM, BN, 2])
#   split_join_3d (X *T, Out *T)        -D A -D B      join(split(x)) with halves swapped
#   interleave_2d (X *T, Y *T, Out *T)  -D BM -D BN    Out[BM, 2*BN] = tl.interleave(x, y)
#   cat_1d        (X *T, Y *T, Out *T)  -D BLOCK       Out[2*BLOCK] = tl.cat(x, y, can_reorder=True)
#   broadcast_2d  (X *T, Y *T, OutX *T, OutY *T) -D BM -D BN
#       bx, by = tl.broadcast(x[BM, 1], y[1, BN]); both stored [BM, BN]
#   zeros_like_2d (X *T, Out *T)        -D BM -D BN    Out = tl.zeros_like(x) + x
#   split_scalar  (X *T, Out *T)                      a, b = tl.split(x[2]); Out = [b, a]
#   trans_bool_2d (X *T, Out *i8)       -D BM -D BN    Out = tl.trans(x > 0).to(int8)
#   trans_ptr_2d  (X *T, Out *T)        -D BM -D BN    loads through tl.trans(pointers)
#   trans_reduce_2d (X *fp32, Out *fp32) -D BM -D BN   Out[BN] = max(tl.trans(x), axis=1)
# RUN: ln-compile %s --kernel trans_2d --signature '*fp16:16,*fp16:16' -D BM=32 -D BN=64 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel trans_method_2d --signature '*fp32:16,*fp32:16,*fp32:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel permute_3d --signature '*i32:16,*i32:16' -D A=4 -D B=8 -D C=16 -D D0=2 -D D1=0 -D D2=1 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel reshape_2d --signature '*fp32:16,*fp32:16' -D BM=16 -D BN=64 -D RM=64 -D RN=16 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel reshape_3d --signature '*i8:16,*i8:16' -D A=4 -D B=8 -D C=32 -D RM=32 -D RN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel view_2d --signature '*i16:16,*i16:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel ravel_3d --signature '*bf16:16,*bf16:16' -D A=2 -D B=16 -D C=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel join_2d --signature '*i64:16,*i64:16,*i64:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel join_bcast --signature '*fp32:16,*fp32:16,*fp32:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel split_3d --signature '*fp16:16,*fp16:16,*fp16:16' -D BM=16 -D BN=64 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel split_join_3d --signature '*i32:16,*i32:16' -D A=8 -D B=16 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel interleave_2d --signature '*i32:16,*i32:16,*i32:16' -D BM=8 -D BN=64 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel cat_1d --signature '*fp32:16,*fp32:16,*fp32:16' -D BLOCK=256 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel broadcast_2d --signature '*i32:16,*i32:16,*i32:16,*i32:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel zeros_like_2d --signature '*fp16:16,*fp16:16' -D BM=16 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel split_scalar --signature '*i32:16,*i32:16' --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel trans_bool_2d --signature '*fp32:16,*i8:16' -D BM=32 -D BN=16 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel trans_ptr_2d --signature '*fp32:16,*fp32:16' -D BM=32 -D BN=32 --emit=ptx -o /dev/null
# RUN: ln-compile %s --kernel trans_reduce_2d --signature '*fp32:16,*fp32:16' -D BM=32 -D BN=64 --emit=ptx -o /dev/null
import triton
import triton.language as tl


@triton.jit
def trans_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    tl.store(Out + c[:, None] * BM + r[None, :], tl.trans(x))


@triton.jit
def trans_method_2d(X, Out, Out2, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    tl.store(Out + c[:, None] * BM + r[None, :], x.trans())
    tl.store(Out2 + c[:, None] * BM + r[None, :], x.T)


@triton.jit
def _offsets_3d(S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr):
    i = tl.arange(0, S0)[:, None, None]
    j = tl.arange(0, S1)[None, :, None]
    k = tl.arange(0, S2)[None, None, :]
    return i * (S1 * S2) + j * S2 + k


@triton.jit
def permute_3d(X, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
               D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr):
    x = tl.load(X + _offsets_3d(A, B, C))
    y = tl.permute(x, D0, D1, D2)
    tl.store(Out + _offsets_3d(y.shape[0], y.shape[1], y.shape[2]), y)


@triton.jit
def reshape_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr, RM: tl.constexpr,
               RN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    y = tl.reshape(x, RM, RN)
    rr = tl.arange(0, RM)
    rc = tl.arange(0, RN)
    y = y + rr[:, None].to(y.dtype)
    tl.store(Out + rr[:, None] * RN + rc[None, :], y)


@triton.jit
def reshape_3d(X, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
               RM: tl.constexpr, RN: tl.constexpr):
    x = tl.load(X + _offsets_3d(A, B, C))
    y = x.reshape((RM, RN))
    rr = tl.arange(0, RM)
    rc = tl.arange(0, RN)
    tl.store(Out + rr[:, None] * RN + rc[None, :], y)


@triton.jit
def view_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    y = tl.view(x, BN, BM)
    tl.store(Out + c[:, None] * BM + r[None, :], y)


@triton.jit
def ravel_3d(X, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + _offsets_3d(A, B, C))
    tl.store(Out + tl.arange(0, A * B * C), tl.ravel(x))


@triton.jit
def join_2d(X, Y, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * BN + c[None, :]
    z = tl.join(tl.load(X + offs), tl.load(Y + offs))
    tl.store(Out + offs[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], z)


@triton.jit
def join_bcast(X, Y, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r)[:, None]
    y = tl.load(Y + c)[None, :]
    z = tl.join(x, y)
    offs = r[:, None] * BN + c[None, :]
    tl.store(Out + offs[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], z)


@triton.jit
def split_3d(X, OutA, OutB, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * BN + c[None, :]
    x = tl.load(X + offs[:, :, None] * 2 + tl.arange(0, 2)[None, None, :])
    a, b = tl.split(x)
    tl.store(OutA + offs, a)
    tl.store(OutB + offs, b)


@triton.jit
def split_join_3d(X, Out, A: tl.constexpr, B: tl.constexpr):
    offs = _offsets_3d(A, B, 2)
    a, b = tl.split(tl.load(X + offs))
    tl.store(Out + offs, tl.join(b, a))


@triton.jit
def interleave_2d(X, Y, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * BN + c[None, :]
    z = tl.interleave(tl.load(X + offs), tl.load(Y + offs))
    c2 = tl.arange(0, 2 * BN)
    tl.store(Out + r[:, None] * (2 * BN) + c2[None, :], z)


@triton.jit
def cat_1d(X, Y, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    z = tl.cat(tl.load(X + offs), tl.load(Y + offs), can_reorder=True)
    tl.store(Out + tl.arange(0, 2 * BLOCK), z)


@triton.jit
def broadcast_2d(X, Y, OutX, OutY, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    bx, by = tl.broadcast(tl.load(X + r)[:, None], tl.load(Y + c)[None, :])
    offs = r[:, None] * BN + c[None, :]
    tl.store(OutX + offs, bx)
    tl.store(OutY + offs, by)


@triton.jit
def zeros_like_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    offs = r[:, None] * BN + c[None, :]
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.zeros_like(x) + x)


@triton.jit
def split_scalar(X, Out):
    a, b = tl.split(tl.load(X + tl.arange(0, 2)))
    tl.store(Out, b)
    tl.store(Out + 1, a)


@triton.jit
def trans_bool_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    tl.store(Out + c[:, None] * BM + r[None, :], tl.trans(x > 0).to(tl.int8))


@triton.jit
def trans_ptr_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    ptrs = tl.trans(X + r[:, None] * BN + c[None, :])
    tl.store(Out + c[:, None] * BM + r[None, :], tl.load(ptrs))


@triton.jit
def trans_reduce_2d(X, Out, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    x = tl.load(X + r[:, None] * BN + c[None, :])
    tl.store(Out + c, tl.max(tl.trans(x), axis=1))
