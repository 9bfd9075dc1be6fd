# Block-pointer kernels (tl.make_block_ptr / tl.advance / boundary_check /
# padding_option) to compare Triton 3.6 and Kiln on the GPU: same inputs,
# same launch, outputs compared bitwise (cases_blockptr.py). No host code here.
#
# Matrices are row-major unless said otherwise: X[M, N] with row stride
# `sxm` (elements) and column stride 1. CHECK selects the boundary_check
# (0: none, 1: (0,), 2: (1,), 3: (0, 1)); PAD the padding_option (0: "",
# 1: "zero", 2: "nan"). With CHECK < 3 the unchecked dimension must be a
# multiple of its block size (the launch keeps every access in bounds).
# Signatures as ln-compile --signature strings (constexprs by -D):
#
#   tile_copy   (X *T, Out *T, M i32, N i32, sxm i32)  -D BM -D BN -D CHECK -D PAD
#       grid (cdiv(M, BM), cdiv(N, BN)); Out is dense [grid0*BM, grid1*BN]:
#       every loaded tile, padding included, is stored whole (no check).
#       T = fp32 | fp16 | i32 | i8 (PAD=2 only for floats)
#   copy_checked (X *T, Y *T, M i32, N i32, sxm i32, sym i32)  -D BM -D BN
#       grid (cdiv(M, BM), cdiv(N, BN)); Y[M, N] = X through block pointers,
#       both load and store with boundary_check=(0, 1): Y outside [M, N]
#       (the poisoned rest of a larger buffer) stays untouched.
#   col_major_copy (X *fp32, Y *fp32, M i32, N i32)  -D BM -D BN
#       X is column-major (strides (1, M), order (0, 1)); Y row-major [M, N].
#   rowsum_for  (X *i32, Out *i32, M i32, K i32, sxm i32)  -D BM -D BK
#       grid (cdiv(M, BM),); Out[M] = row sums of X[M, K], the tile advanced
#       by (0, BK) in a `for` loop (through @triton.jit helpers), the 1-D
#       result stored through a rank-1 block pointer with boundary_check.
#   rowsum_while (X *i32, Out *i32, M i32, K i32, sxm i32)  -D BM -D BK
#       the same with a `while` loop and tl.advance inline.
#   if_advance  (X *fp32, Out *fp32, M i32, N i32, sxm i32, flip i32)  -D BM -D BN
#       grid (1,); Out[BM, BN] = the tile at (0, 0), or at (0, BN) when
#       flip != 0 (a block pointer merged through a runtime `if`).
#   copy_3d     (X *fp32, Y *fp32, A i32, B i32, C i32)  -D BA -D BB -D BC
#       grid (cdiv(A, BA), cdiv(B, BB), cdiv(C, BC)); X, Y contiguous
#       [A, B, C]; boundary_check=(0, 1, 2) on load and store.
# Every kernel compiles to PTX (lit):
# RUN: ln-compile %s --kernel tile_copy --signature '*fp16,*fp16,i32,i32,i32' -D BM=16 -D BN=32 -D CHECK=3 -D PAD=2 --emit=ptx | FileCheck %s --check-prefix=TC
# RUN: ln-compile %s --kernel tile_copy --signature '*i8,*i8,i32,i32,i32' -D BM=16 -D BN=32 -D CHECK=1 -D PAD=1 --emit=ptx | FileCheck %s --check-prefix=TC
# RUN: ln-compile %s --kernel copy_checked --signature '*fp32,*fp32,i32,i32,i32,i32' -D BM=32 -D BN=64 --emit=ptx | FileCheck %s --check-prefix=CC
# RUN: ln-compile %s --kernel col_major_copy --signature '*fp32,*fp32,i32,i32' -D BM=32 -D BN=64 --emit=ptx | FileCheck %s --check-prefix=CM
# RUN: ln-compile %s --kernel rowsum_for --signature '*i32,*i32,i32,i32,i32' -D BM=32 -D BK=64 --emit=ptx | FileCheck %s --check-prefix=RF
# RUN: ln-compile %s --kernel rowsum_while --signature '*i32,*i32,i32,i32,i32' -D BM=32 -D BK=64 --emit=ptx | FileCheck %s --check-prefix=RW
# RUN: ln-compile %s --kernel if_advance --signature '*fp32,*fp32,i32,i32,i32,i32' -D BM=32 -D BN=64 --emit=ptx | FileCheck %s --check-prefix=IA
# RUN: ln-compile %s --kernel copy_3d --signature '*fp32,*fp32,i32,i32,i32' -D BA=2 -D BB=8 -D BC=32 --emit=ptx | FileCheck %s --check-prefix=C3
# TC: .entry tile_copy(
# CC: .entry copy_checked(
# CM: .entry col_major_copy(
# RF: .entry rowsum_for(
# RW: .entry rowsum_while(
# IA: .entry if_advance(
# C3: .entry copy_3d(
import triton
import triton.language as tl


@triton.jit
def tile_copy(X, Out, M, N, sxm, BM: tl.constexpr, BN: tl.constexpr,
              CHECK: tl.constexpr, PAD: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(X, shape=(M, N), strides=(sxm, 1),
                            offsets=(pm * BM, pn * BN), block_shape=(BM, BN),
                            order=(1, 0))
    if PAD == 0:
        if CHECK == 0:
            x = tl.load(src)
        elif CHECK == 1:
            x = tl.load(src, boundary_check=(0,))
        elif CHECK == 2:
            x = tl.load(src, boundary_check=(1,))
        else:
            x = tl.load(src, boundary_check=(0, 1))
    elif PAD == 1:
        if CHECK == 0:
            x = tl.load(src, padding_option="zero")
        elif CHECK == 1:
            x = tl.load(src, boundary_check=(0,), padding_option="zero")
        elif CHECK == 2:
            x = tl.load(src, boundary_check=(1,), padding_option="zero")
        else:
            x = tl.load(src, boundary_check=(1, 0), padding_option="zero")
    else:
        if CHECK == 0:
            x = tl.load(src, padding_option="nan")
        elif CHECK == 1:
            x = tl.load(src, boundary_check=(0,), padding_option="nan")
        elif CHECK == 2:
            x = tl.load(src, boundary_check=(1,), padding_option="nan")
        else:
            x = tl.load(src, boundary_check=(0, 1), padding_option="nan")
    ow = tl.num_programs(1) * BN
    dst = tl.make_block_ptr(Out, (tl.num_programs(0) * BM, ow), (ow, 1),
                            (pm * BM, pn * BN), (BM, BN), (1, 0))
    tl.store(dst, x)


@triton.jit
def copy_checked(X, Y, M, N, sxm, sym, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(X, (M, N), (sxm, 1), (pm * BM, pn * BN), (BM, BN),
                            (1, 0))
    dst = tl.make_block_ptr(Y, (M, N), (sym, 1), (pm * BM, pn * BN), (BM, BN),
                            (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1)), boundary_check=(0, 1))


@triton.jit
def col_major_copy(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(X, (M, N), (1, M), (pm * BM, pn * BN), (BM, BN),
                            (0, 1))
    dst = tl.make_block_ptr(Y, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN),
                            (1, 0))
    x = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, x, boundary_check=(0, 1))


@triton.jit
def _row_tile(base, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    return tl.make_block_ptr(base, (M, K), (sxm, 1),
                             (tl.program_id(0) * BM, 0), (BM, BK), (1, 0))


@triton.jit
def _next_k(p, BK: tl.constexpr):
    return tl.advance(p, (0, BK))


@triton.jit
def rowsum_for(X, Out, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    p = _row_tile(X, M, K, sxm, BM, BK)
    acc = tl.zeros((BM, BK), dtype=tl.int32)
    for k in range(0, K, BK):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = _next_k(p, BK)
    o = tl.make_block_ptr(Out, (M,), (1,), (tl.program_id(0) * BM,), (BM,),
                          (0,))
    tl.store(o, tl.sum(acc, axis=1), boundary_check=(0,))


@triton.jit
def rowsum_while(X, Out, M, K, sxm, BM: tl.constexpr, BK: tl.constexpr):
    p = tl.make_block_ptr(X, (M, K), (sxm, 1), (tl.program_id(0) * BM, 0),
                          (BM, BK), (1, 0))
    acc = tl.zeros((BM, BK), dtype=tl.int32)
    k = 0
    while k < K:
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = tl.advance(p, (0, BK))
        k += BK
    o = tl.make_block_ptr(Out, (M,), (1,), (tl.program_id(0) * BM,), (BM,),
                          (0,))
    tl.store(o, tl.sum(acc, axis=1), boundary_check=(0,))


@triton.jit
def if_advance(X, Out, M, N, sxm, flip, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(X, (M, N), (sxm, 1), (0, 0), (BM, BN), (1, 0))
    if flip != 0:
        p = tl.advance(p, (0, BN))
    x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    o = tl.make_block_ptr(Out, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(o, x)


@triton.jit
def copy_3d(X, Y, A, B, C, BA: tl.constexpr, BB: tl.constexpr,
            BC: tl.constexpr):
    off = (tl.program_id(0) * BA, tl.program_id(1) * BB, tl.program_id(2) * BC)
    src = tl.make_block_ptr(X, (A, B, C), (B * C, C, 1), off, (BA, BB, BC),
                            (2, 1, 0))
    dst = tl.make_block_ptr(Y, (A, B, C), (B * C, C, 1), off, (BA, BB, BC),
                            (2, 1, 0))
    x = tl.load(src, boundary_check=(0, 1, 2), padding_option="zero")
    tl.store(dst, x, boundary_check=(0, 1, 2))
