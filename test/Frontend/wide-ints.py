# Compile-time integers follow Python's: `2 ** 63 - 1`, `-(1 << 63)` and
# `0xFFFFFFFFFFFFFFFF` pass through values in [2^63, 2^64) (kept as 64-bit
# patterns), as int64 / uint64 kernels write their extreme values. Beyond
# [-2^63, 2^64) is an overflow; a constant next to a narrower tensor must fit.
# RUN: ln-compile %s --kernel k --signature '*i64,*i64,*u64' --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel too_big --signature '*i64' 2>&1 | FileCheck %s --check-prefix=BIG
# RUN: not ln-compile %s --kernel narrow --signature '*i32' 2>&1 | FileCheck %s --check-prefix=NARROW
import triton
import triton.language as tl

INT64_MAX: tl.constexpr = 2 ** 63 - 1
UINT64_MAX: tl.constexpr = 0xFFFF_FFFF_FFFF_FFFF


# CHECK-LABEL: func.func @k
# CHECK-DAG: arith.constant dense<-9223372036854775808> : tensor<64xi64>
# CHECK-DAG: arith.constant dense<9223372036854775807> : tensor<64xi64>
# CHECK-DAG: arith.constant dense<-1> : tensor<64xi64>
@triton.jit
def k(X, Y, U):
    offs = tl.arange(0, 64)
    x = tl.load(X + offs)
    lo: tl.constexpr = -(1 << 63)
    tl.static_assert(INT64_MAX + 1 == -lo and UINT64_MAX > INT64_MAX)
    tl.static_assert(UINT64_MAX // 2 == INT64_MAX and (UINT64_MAX >> 63) == 1)
    m = tl.where(x == lo, INT64_MAX, x)
    tl.store(Y + offs, m ^ (1 << 63))
    tl.store(U + offs, tl.full([64], UINT64_MAX, tl.uint64))


@triton.jit
def too_big(X):
    # BIG: wide-ints.py:[[@LINE+1]]:17: error: integer overflow in constant expression
    tl.store(X, UINT64_MAX + 1)


@triton.jit
def narrow(X):
    x = tl.load(X)
    # NARROW: wide-ints.py:[[@LINE+1]]:17: error: constant 9223372036854775808 is out of range for int32
    tl.store(X, x + 2 ** 63)
