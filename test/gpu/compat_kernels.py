# Spellings from real kernel files whose meaning is Triton's own, compared on
# the GPU under Triton 3.6 and Kiln (test/gpu/cases_compat.py). Written for
# Kiln's tests.
# - `range(a, b, step=s)` (lightllm): Triton drops the keyword, the loop
#   steps by 1; Kiln does the same (with a warning).
# - `tl.cast(0, dtype=tl.int64)` (lightllm): a number cast to a dtype.
# - `math` module constants and a version-guarded helper (mamba's
#   softplus.py), resolved by Kiln's module evaluator.
# - `x_i8 & 0x80` (lightllm's int4 KV quantizer): a Python constant out of
#   int8's range next to an int8 tensor; Kiln rejects it, the GPU case
#   records what Triton does.
# - sglang's: `if start_ptr:` on an optional pointer (given, or None),
#   `if is_lead and not SKIP:` (a deciding constexpr after a runtime operand)
#   and `(tl.static_range if N <= 4 else range)(N)`; a runtime `other`.
# As a lit test: each compiles (the last one fails) and ptxas takes them.
# RUN: rm -rf %t && mkdir -p %t
# RUN: ln-compile %s --kernel range_keyword --signature '*i64,*i64,i32,i32' --emit=ptx -o %t/0.ptx 2>%t/0.err
# RUN: FileCheck %s --check-prefix=WARN --input-file=%t/0.err
# RUN: ln-compile %s --kernel gelu_softplus --signature '*fp32,*fp32,i32' -D BLOCK=256 --emit=ptx -o %t/1.ptx
# RUN: not ln-compile %s --kernel int8_mask --signature '*i8,*i32,i32' -D BLOCK=256 --emit=ptx -o %t/2.ptx 2>&1 | FileCheck %s --check-prefix=I8
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/0.ptx -o %t/0.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/1.ptx -o %t/1.cubin %}
# RUN: ln-compile %s --kernel optional_start --signature '*i32,*i32,i32' -D BLOCK=128 --emit=ptx -o %t/3.ptx
# RUN: ln-compile %s --kernel optional_start --signature '*i32,none,i32' -D BLOCK=128 --emit=ptx -o %t/4.ptx
# RUN: ln-compile %s --kernel lead_only --signature '*fp32,*fp32' -D SKIP=True --emit=ptx -o %t/5.ptx
# RUN: ln-compile %s --kernel chosen_iter --signature '*fp32,*fp32,*fp32,fp32,i32' -D N=3 -D BLOCK=128 --emit=ptx -o %t/6.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/3.ptx -o %t/3.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/5.ptx -o %t/5.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/6.ptx -o %t/6.cubin %}
# WARN: warning: Triton ignores keyword arguments of `range`
# I8: error: constant 128 is out of range for int8
import math

import triton
import triton.language as tl
from packaging import version
from triton.language.extra import libdevice

_kAlpha = tl.constexpr(math.sqrt(2.0 / math.pi))
TRITON3 = version.parse(triton.__version__) >= version.parse("3.0.0")

if TRITON3:
    @triton.jit
    def softplus(dt):
        return tl.math.log(tl.math.exp(dt) + 1)
else:
    @triton.jit
    def softplus(dt):
        return tl.math.log1p(tl.exp(dt))


@triton.jit
def range_keyword(X, OUT, N, S):
    acc = tl.cast(0, dtype=tl.int64)
    count = 0
    for i in range(0, N, step=S):
        acc += tl.load(X + i)
        count += 1
    tl.store(OUT, acc)
    tl.store(OUT + 1, count)


@triton.jit
def unrolled_range(X, OUT, CNT, lo, hi, STEP: tl.constexpr, UF: tl.constexpr,
                   BLOCK: tl.constexpr):
    # loop_unroll_factor: the unrolled loop, then the rest; the order of the
    # iterations shows in acc (each halves what came before).
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    count = 0
    for i in tl.range(lo, hi, STEP, loop_unroll_factor=UF):
        acc = acc * 0.5 + tl.load(X + i * BLOCK + offs)
        count += 1
    tl.store(OUT + offs, acc)
    tl.store(CNT, count)


@triton.jit
def gelu_softplus(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0.0)
    g = 0.5 * x * (1 + libdevice.tanh(_kAlpha * (x + 0.044715 * x * x * x)))
    tl.store(Y + offs, g + softplus(x) * math.log2(8), mask=m)


@triton.jit
def int8_mask(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0)
    tl.store(Y + offs, ((x & 0x80) >> 4) | (x & 0xF), mask=m)


@triton.jit
def optional_start(OUT, START, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    start = 0
    if START:
        start = tl.load(START + tl.program_id(0))
    tl.store(OUT + offs, offs + start, mask=offs < N)


@triton.jit
def lead_only(X, OUT, SKIP: tl.constexpr):
    pid = tl.program_id(0)
    is_lead = pid == 0
    if not SKIP:
        z = tl.load(X)
    if is_lead and not SKIP:
        tl.store(OUT, z)
    if pid < 1 or True:
        tl.store(OUT + 1 + pid, 2.0)


@triton.jit
def chosen_iter(X, MASKED, OUT, fill, n, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in (tl.static_range if N <= 4 else range)(N):
        acc += tl.load(X + i * BLOCK + offs)
    # A runtime `other`: lanes at or past n read `fill`.
    acc += tl.load(MASKED + offs, mask=offs < n, other=fill)
    tl.store(OUT + offs, acc)
