# `f = triton.jit(f)` after `def f` is `@triton.jit def f` (unsloth writes its
# cross-entropy, RoPE and RMS-norm kernels so, then wraps them with
# `f = triton.heuristics({...})(f)`): the statement is read as the def's
# outermost decorator. The kernel compiles, its helper defined the same way
# is callable, the heuristics wrapper is evaluated as a decorator (EVEN from
# -D n), and a function a statement wraps without any jit stays a plain def.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D n=64 -D BLOCK=128 --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel plain --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: not ln-compile %s --kernel k --list-configs 2>&1 | FileCheck %s --check-prefix=NOTUNE
# Under a new name (unsloth's grouped GEMM: `_autotuned = triton.autotune(...)(_kernel)`)
# the wrapper makes a second kernel with W outermost; `k` keeps no autotune (NOTUNE).
# RUN: ln-compile %s --kernel k_tuned --list-configs | FileCheck %s --check-prefix=TUNED
# RUN: ln-compile %s --kernel k_tuned --signature '*fp32,i32' -D n=63 --config 1 --emit=tile | FileCheck %s --check-prefix=TUNED-IR
import functools

import triton
import triton.language as tl


def plus_one(x):
    return x + 1.0


plus_one = triton.jit(plus_one)


def k(x, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = plus_one(tl.load(x + offs, mask=offs < n))
    if EVEN:
        v = v * 2
    tl.store(x + offs, v, mask=offs < n)


k = triton.jit(k)
k = triton.heuristics({"EVEN": lambda args: args["n"] % 2 == 0})(k)


k_tuned = triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2),
                                   triton.Config({"BLOCK": 128}, num_warps=4)], key=["n"])(k)


def plain(x):
    pass


plain = functools.lru_cache(plain)

# CHECK: tile.constexprs = {BLOCK = "128", EVEN = "True"}
# CHECK-LABEL: func.func @k(
# CHECK: arith.addf
# CHECK: arith.mulf
# CHECK: tile.store
# PLAIN: jit-call-form.py:43:5: error: `plain` is not a @triton.jit function
# NOTUNE: `k` has no @triton.autotune
# TUNED: 0: BLOCK: 64, num_warps: 2
# TUNED-NEXT: 1: BLOCK: 128, num_warps: 4
# The heuristics of `k` (inner) still decide EVEN from n = 63.
# TUNED-IR: tile.constexprs = {BLOCK = "128", EVEN = "False"}
# TUNED-IR-LABEL: func.func @k_tuned(
