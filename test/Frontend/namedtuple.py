# Namedtuples (Triton 3.3+): a namedtuple argument's fields are read by name
# (its signature entry names them), NamedTuple classes of the module are
# built in kernels (positional and keyword fields, constexpr defaults) and
# passed to helpers; wrong fields are named.
# RUN: ln-compile %s --kernel copy --signature '(ptr=*fp32:16,n=i32),(ptr=*fp32:16,n=i32)' -D BLOCK=64 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel closure --signature '*fp32:16,(fn=None,captured=(fp32,i32))' --emit=tile | FileCheck %s --check-prefix=STAR
# RUN: ln-compile %s --kernel from_collections --signature '*fp32,i32' --emit=tile | FileCheck %s --check-prefix=COLL
# RUN: not ln-compile %s --kernel bad_field --signature '(ptr=*fp32:16,n=i32)' --emit=tile 2>&1 | FileCheck %s --check-prefix=FIELD
# RUN: not ln-compile %s --kernel bad_field --signature '(*fp32:16,i32)' --emit=tile 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: not ln-compile %s --kernel missing --signature '*fp32' --emit=tile 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not ln-compile %s --kernel unknown_kw --signature '*fp32' --emit=tile 2>&1 | FileCheck %s --check-prefix=KW
import collections
from collections import namedtuple
from typing import NamedTuple

import triton
import triton.language as tl


class View(NamedTuple):
    ptr: tl.tensor
    n: int
    scale: tl.constexpr = 2.0


@triton.jit
def _load(v, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    return tl.load(v.ptr + offs, mask=offs < v.n) * v.scale


@triton.jit
def copy(src, dst, BLOCK: tl.constexpr):
    x = _load(View(src.ptr, n=src.n), BLOCK)
    offs = tl.arange(0, BLOCK)
    tl.static_assert(len(View(dst.ptr, dst.n, 3.0)) == 3)
    tl.store(dst.ptr + offs, x, mask=offs < dst.n)

# CHECK-LABEL: func.func @copy(
# CHECK-SAME: %arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "src.0"}, %arg1: i32 {tile.name = "src.1"}
# CHECK: %[[N:[^ ]+]] = tile.splat %arg1 : i32 -> tensor<64xi32>
# CHECK: %[[X:[^ ]+]] = tile.load %{{.*}}, mask %{{.*}} : tensor<64x!tile.ptr<f32>>
# CHECK: %[[TWO:[^ ]+]] = arith.constant dense<2.000000e+00> : tensor<64xf32>
# CHECK: arith.mulf %[[X]], %[[TWO]] : tensor<64xf32>


@triton.jit
def _affine(x, a, b):
    return x * a + b


class Closure(NamedTuple):
    fn: tl.constexpr
    captured: tuple


@triton.jit
def closure(X, c):
    # Triton's closure pattern: a function and its captured arguments, the
    # tuple unpacked with `*` into the call.
    cl = Closure(_affine, c.captured)
    offs = tl.arange(0, 16)
    tl.store(X + offs, cl.fn(tl.load(X + offs), *cl.captured))

# STAR-LABEL: func.func @closure(
# STAR-SAME: %arg1: f32 {tile.name = "c.1.0"}, %arg2: i32 {tile.name = "c.1.1"}
# STAR: %[[S:[^ ]+]] = tile.splat %arg1 : f32 -> tensor<16xf32>
# STAR: %[[M:[^ ]+]] = arith.mulf %{{.*}}, %[[S]] : tensor<16xf32>
# STAR: %[[B:[^ ]+]] = arith.sitofp %arg2 : i32 to f32
# STAR: arith.addf %[[M]], %{{.*}} : tensor<16xf32>


Pair = namedtuple("Pair", ["ptr", "n"])
Coef = collections.namedtuple("Coef", "a, b c", defaults=(5.0, 7.0))


@triton.jit
def from_collections(X, N):
    p = Pair(X, N)
    c = Coef(1.0, c=2.0)
    offs = tl.arange(0, 16)
    tl.store(p.ptr + offs, c.a + c.b * c.c, mask=offs < p.n)

# COLL-LABEL: func.func @from_collections(
# COLL: arith.constant dense<1.100000e+01> : tensor<16xf32>


@triton.jit
def bad_field(v):
    # FIELD: namedtuple.py:[[@LINE+2]]:24: error: the namedtuple has no field `size` (its fields: ptr, n)
    # PLAIN: namedtuple.py:[[@LINE+1]]:16: error: unknown attribute `v.ptr`: a plain tuple of 2 element(s) has no attributes (index it, `x[0]`; a namedtuple argument's fields are read by name)
    tl.store(v.ptr + v.size, 1.0)


@triton.jit
def missing(p):
    # MISSING: namedtuple.py:[[@LINE+1]]:9: error: `View` is missing the field `n`
    v = View(p)


@triton.jit
def unknown_kw(p):
    # KW: namedtuple.py:[[@LINE+1]]:22: error: `View` has no field `size` (its fields: ptr, n, scale)
    v = View(p, size=3)
