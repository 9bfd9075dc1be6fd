# @triton.constexpr_function (Triton 3.5+): Python functions that kernels call
# with compile-time arguments, run by Kiln's host-Python evaluator; the result
# is a constexpr (ints, floats, bools, strings, dtypes, tuples / lists).
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp32' -D N=1000 -D P=0.25 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel acc --signature '*fp16,*fp32' --emit=tile | FileCheck %s --check-prefix=ACC
# RUN: not ln-compile %s --kernel runtime_arg --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=ARG
# RUN: not ln-compile %s --kernel host_error --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not ln-compile %s --kernel bad_result --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=RESULT
import math

import triton
import triton.language as tl
from triton.language.core import constexpr_function


@triton.constexpr_function
def llr(p):
    return math.log((1.0 - p) / p)


@constexpr_function
def block_for(n, dtype):
    bits = dtype.primitive_bitwidth
    return min(triton.next_power_of_2(n), 16384 // bits)


@triton.constexpr_function
def halves(rows, cols):
    return [rows, cols // 2]


def _unwrap(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def accum_type(out_dtype):
    out_dtype = _unwrap(out_dtype)
    if out_dtype.is_bf16() or out_dtype.is_fp16():
        return tl.float32
    if out_dtype.is_int() and out_dtype.int_bitwidth < 64:
        return tl.int64
    return out_dtype


@tl.constexpr
def int_type(num_bits, signed):
    return tl.core.get_int_dtype(num_bits, signed)


@triton.constexpr_function
def needs_torch(n):
    return torch.empty(n)  # noqa: F821


@triton.constexpr_function
def as_dict(n):
    return {"n": n}


# CHECK-LABEL: func.func @k
# CHECK: tile.arange 0 to 512 : tensor<512xi32>
# CHECK: tile.reshape {{.*}} : tensor<512xf32> -> tensor<2x256xf32>
# CHECK: arith.constant dense<1.09861231> : tensor<512xf32>
@triton.jit
def k(X, Y, N: tl.constexpr, P: tl.constexpr):
    BLOCK: tl.constexpr = block_for(N, X.dtype.element_ty)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    y = tl.reshape(x, halves(2, BLOCK))
    tl.store(Y + offs, tl.reshape(y, [BLOCK]) * llr(P), mask=offs < N)


@triton.jit
def runtime_arg(X, n):
    # ARG: constexpr-function.py:[[@LINE+1]]:21: error: `llr` is a @triton.constexpr_function: argument 1 must be a compile-time value, not i32
    tl.store(X, llr(n))


@triton.jit
def host_error(X):
    tl.store(X, needs_torch(4))
# HOST: constexpr-function.py:53:12: error: name `torch` is not defined at the module level of this file (in @triton.constexpr_function `needs_torch`)


@triton.jit
def bad_result(X):
    # RESULT: constexpr-function.py:[[@LINE+1]]:17: error: @triton.constexpr_function `as_dict` returned dict, which kernels cannot use
    tl.store(X, as_dict(4))


# A def decorated @tl.constexpr, reading tl.dtype's predicates and
# isinstance(o, tl.constexpr) (False: the evaluator's values are unwrapped).
# ACC-LABEL: func.func @acc
# ACC: arith.extf {{.*}} : tensor<64xf16> to tensor<64xf32>
@triton.jit
def acc(X, Y):
    offs = tl.arange(0, 64)
    x = tl.load(X + offs).to(accum_type(X.dtype.element_ty))
    tl.store(Y + offs, x)
    u: tl.constexpr = int_type(x.dtype.primitive_bitwidth, False)
    tl.static_assert(u == tl.uint32)
