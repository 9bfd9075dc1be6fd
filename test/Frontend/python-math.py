# Python's `math` in kernel files: module constants computed with it
# (`tl.constexpr(math.sqrt(2.0 / math.pi))`, FlashAttention-style GELU
# constants in lightllm) and calls on numbers inside kernels are folded when
# the kernel is compiled, as Python evaluates them before Triton does. A
# tensor argument and a math domain error are errors at the call.
# RUN: ln-compile %s --kernel k --signature '*fp32' -D BLOCK=64 --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel on_tensor --signature '*fp32' -D BLOCK=64 --emit=tile 2>&1 | FileCheck --check-prefix=TENSOR %s
# RUN: not ln-compile %s --kernel domain --signature '*fp32' --emit=tile 2>&1 | FileCheck --check-prefix=DOMAIN %s
# RUN: not ln-compile %s --kernel unknown --signature '*fp32' --emit=tile 2>&1 | FileCheck --check-prefix=UNKNOWN %s
# CHECK-LABEL: func.func @k
# sqrt(2 / pi)
# CHECK-DAG: arith.constant dense<0.797884583> : tensor<64xf32>
# int(log2(1024)) * floor(pi) + gcd(12, 18) * lcm(4, 6) + isqrt(17) + trunc(-2.5) + factorial(4)
# = 10 * 3 + 6 * 12 + 4 - 2 + 24 = 128
# CHECK-DAG: arith.constant dense<1.280000e+02> : tensor<64xf32>
# pow(2, 0.5) * copysign(1, -0.0) + fmod(7, 4) + degrees(pi) = -1.41421 + 3 + 180
# CHECK-DAG: arith.constant dense<181.585785> : tensor<64xf32>
# TENSOR: python-math.py:[[@LINE+27]]:34: error: `math.sqrt` is Python's, evaluated when the kernel is compiled: it takes numbers, got tensor<64xf32>; on tensors use `tl.sqrt`
# DOMAIN: python-math.py:[[@LINE+31]]:17: error: `math.log`: math domain error
# UNKNOWN: python-math.py:[[@LINE+35]]:17: error: unknown attribute `math.frexp`
import math
from math import log2, pi as PI
import triton
import triton.language as tl

_kAlpha = tl.constexpr(math.sqrt(2.0 / math.pi))
LOG_BLOCK: tl.constexpr = int(log2(1024))


@triton.jit
def k(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = x * _kAlpha
    c = LOG_BLOCK * math.floor(PI) + math.gcd(12, 18) * math.lcm(4, 6) + \
        math.isqrt(17) + math.trunc(-2.5) + math.factorial(4)
    d = math.pow(2, 0.5) * math.copysign(1, -0.0) + math.fmod(7, 4) + math.degrees(PI)
    tl.store(X + offs, y + c + d)


@triton.jit
def on_tensor(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(X + offs, math.sqrt(x))


@triton.jit
def domain(X):
    tl.store(X, math.log(0.0))


@triton.jit
def unknown(X):
    tl.store(X, math.frexp(2.0))
