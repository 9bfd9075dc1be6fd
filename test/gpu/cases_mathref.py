"""Precision of Kiln's math builtins and libdevice wrappers against PyTorch (Kiln only).

cases_math.py checks that Kiln's results are bitwise Triton's; this family checks how far both
are from the true value. Each function runs under Kiln (test/gpu/math_kernels.py) on random
inputs from its domain, and the result is compared with PyTorch's fp64 function of the same
inputs, rounded to the result type. A case passes when the largest distance in ULPs is within
the bound docs/builtins.md documents for the function (the CUDA Math API's for libdevice
functions) plus the reference's own rounding (1 ULP for fp32, 2 for fp64, whose reference is
itself a libm result), NaN where PyTorch gives NaN and infinities equal. The detail line gives the
measured maximum; docs/builtins.md's precision table records them.
"""
import decimal
import math
import os

import torch

from cases_math import ordered
from kcompare import DEV, HERE, gen, triton_module

PATH = os.path.join(HERE, "math_kernels.py")
N = 1 << 16
BLOCK = 256
GRID = (N // BLOCK,)
TYPES = {"fp32": torch.float32, "fp64": torch.float64}


def python_math(fn):
    """An fp64 reference from Python's math module, element by element (CPU tensors)."""
    def ref(*xs):
        return torch.tensor([fn(*v) for v in zip(*[x.tolist() for x in xs])], dtype=torch.float64)
    return ref


def normcdf(x):
    """0.5 erfc(-x / sqrt 2) with the rounding of -x / sqrt 2 corrected to first order: in the
    tails erfc's relative slope is ~2t, so that rounding alone costs ~60 fp64 ULPs at x = -8."""
    t = -decimal.Decimal(x) / decimal.Decimal(2).sqrt()
    hi = float(t)
    lo = float(t - decimal.Decimal(hi))
    return 0.5 * (math.erfc(hi) - 2.0 / math.sqrt(math.pi) * math.exp(-hi * hi) * lo)


def round_half_away(x):
    return x.sign() * torch.floor(x.abs() + 0.5)


# name, OP index in the kernel's chain, PyTorch fp64 reference, input range, ULP bound (fp32,
# fp64): the documented maximum error (CUDA Math API for libdevice; docs/builtins.md).
TL_UNARY = [  # tl_unary(OP): tl.* builtins
    # 1 / (1 + exp(-x)): for x << 0 it is exp(x), with tl.exp's error.
    ("tl.sigmoid", 0, torch.sigmoid, (-20, 20), (2 + 2 * 29, 4)),
    ("tl.erf", 1, torch.erf, (-4, 4), (2, 2)),
    ("tl.floor", 2, torch.floor, (-100, 100), (0, 0)),
    ("tl.ceil", 3, torch.ceil, (-100, 100), (0, 0)),
    ("tl.log2", 4, torch.log2, (1e-3, 1e3), (1, 1)),
    ("tl.sin", 5, torch.sin, (-100, 100), (2, 2)),
    ("tl.cos", 6, torch.cos, (-100, 100), (2, 2)),
    ("tl.sqrt_rn", 7, torch.sqrt, (0, 1e6), (0, None)),
    ("tl.exp", 8, torch.exp, (-20, 20), (2 + 2 * 29, 1)),  # ex2.approx(x log2 e): 2 + 2|x log2 e|
    ("tl.exp2", 9, torch.exp2, (-20, 20), (2, 1)),
    ("tl.log", 10, torch.log, (1e-3, 1e3), (1, 1)),
    ("tl.sqrt", 11, torch.sqrt, (0, 1e6), (1, 0)),
    ("tl.rsqrt", 12, torch.rsqrt, (1e-3, 1e6), (2, 1)),
    ("tl.abs", 13, torch.abs, (-100, 100), (0, 0)),
]
LD_UNARY = [  # ld_unary(OP): tl.extra.cuda.libdevice.*
    ("tanh", 0, torch.tanh, (-10, 10), (2, 1)),
    ("exp", 1, torch.exp, (-80, 80), (2, 1)),
    ("exp2", 2, torch.exp2, (-120, 120), (2, 1)),
    ("exp10", 3, lambda x: torch.pow(10.0, x), (-35, 35), (2, 1)),
    ("expm1", 4, torch.expm1, (-10, 10), (1, 1)),
    ("log", 5, torch.log, (1e-30, 1e30), (1, 1)),
    ("log2", 6, torch.log2, (1e-30, 1e30), (1, 1)),
    ("log10", 7, torch.log10, (1e-30, 1e30), (2, 1)),
    ("log1p", 8, torch.log1p, (-0.99, 100), (1, 1)),
    ("erf", 9, torch.erf, (-4, 4), (2, 2)),
    ("erfc", 10, torch.erfc, (-4, 9), (4, 5)),
    ("erfinv", 11, torch.erfinv, (-0.999, 0.999), (2, 5)),
    ("rint", 12, torch.round, (-1e3, 1e3), (0, 0)),  # torch.round: half to even
    ("round", 13, round_half_away, (-1e3, 1e3), (0, 0)),
    ("trunc", 14, torch.trunc, (-1e3, 1e3), (0, 0)),
    ("nearbyint", 15, torch.round, (-1e3, 1e3), (0, 0)),
    ("rsqrt", 16, torch.rsqrt, (1e-3, 1e6), (2, 1)),
    ("sqrt_rn", 17, torch.sqrt, (0, 1e6), (0, 0)),
    ("sinh", 18, torch.sinh, (-80, 80), (3, 2)),
    ("cosh", 19, torch.cosh, (-80, 80), (2, 1)),
    ("atan", 20, torch.atan, (-100, 100), (2, 2)),
    ("asin", 21, torch.asin, (-1, 1), (2, 2)),
    ("acos", 22, torch.acos, (-1, 1), (2, 2)),
    ("cbrt", 23, python_math(math.cbrt), (-1e6, 1e6), (1, 1)),
    ("lgamma", 24, torch.lgamma, (0.1, 100), (6, 4)),
    ("tan", 25, torch.tan, (-1.5, 1.5), (4, 2)),
    ("sin", 26, torch.sin, (-100, 100), (2, 2)),
    ("cos", 27, torch.cos, (-100, 100), (2, 2)),
    ("floor", 28, torch.floor, (-1e3, 1e3), (0, 0)),
    ("ceil", 29, torch.ceil, (-1e3, 1e3), (0, 0)),
    ("abs", 30, torch.abs, (-1e3, 1e3), (0, 0)),
    ("asinh", 31, torch.asinh, (-100, 100), (3, 2)),
    ("acosh", 32, torch.acosh, (1, 100), (4, 2)),
    ("atanh", 33, torch.atanh, (-0.99, 0.99), (3, 2)),
    # Not torch.special.ndtr: it computes the left tail as a difference near 1 (at x = -7.977 it
    # gives 7.216e-16 where the value is 7.493e-16, measured on the H100).
    ("normcdf", 34, python_math(normcdf), (-8, 8), (5, 5)),
    # fp32: CUDA's table says 5 ULP; 7 measured on the H100 (CUDA 13 libdevice, 2026-11-23).
    # fp64: no reference accurate to a few fp64 ULPs here (math.gamma is ~10 ULP itself).
    ("tgamma", 35, python_math(math.gamma), (0.5, 30), (7, None)),
    ("sqrt", 36, torch.sqrt, (0, 1e6), (0, 0)),
]
# ld_fast(OP), fp32 only: the hardware approximations. Bounds from the CUDA Math API's intrinsic
# table: ULPs where it gives them (outside [0.5, 2] for the logarithms), else an absolute error
# ("abs", bound) over the range.
LD_FAST = [
    ("fast_expf", 0, torch.exp, (-10, 10), 2 + math.floor(1.173 * 10)),
    ("fast_logf", 1, torch.log, (2, 1e6), 3),
    ("fast_tanf", 2, torch.tan, (-1, 1), ("abs", 2.0 ** -20)),
    ("fast_sinf", 3, torch.sin, (-math.pi, math.pi), ("abs", 2.0 ** -21.41)),
    ("fast_cosf", 4, torch.cos, (-math.pi, math.pi), ("abs", 2.0 ** -21.19)),
    ("fast_log2f", 5, torch.log2, (2, 1e6), 2),
    ("fast_exp10f", 6, lambda x: torch.pow(10.0, x), (-5, 5), 2 + math.floor(2.95 * 5)),
    ("fast_log10f", 7, torch.log10, (2, 1e6), 3),
    ("fast_powf", 8, lambda x: torch.pow(x, 1.5), (0.5, 10), 2 + math.floor(1.173 * 1.5 * 10)),
]
LD_BINARY = [  # ld_binary(OP): x in the first range, z in the second
    ("pow", 0, torch.pow, (0.1, 10), (-10, 10), (4, 2)),
    ("atan2", 1, torch.atan2, (-10, 10), (-10, 10), (3, 2)),
    ("hypot", 2, torch.hypot, (-1e3, 1e3), (-1e3, 1e3), (3, 2)),
    ("fmod", 3, torch.fmod, (-100, 100), (0.5, 10), (0, 0)),
    ("copysign", 4, torch.copysign, (-100, 100), (-1, 1), (0, 0)),
    ("fdim", 5, lambda x, z: (x - z).clamp(min=0), (-10, 10), (-10, 10), (0, 0)),
    ("remainder", 7, python_math(math.remainder), (-100, 100), (0.5, 10), (0, 0)),
]


def uniform(t, seed, lo, hi):
    g = gen(seed)
    return (torch.rand(N, device=DEV, generator=g, dtype=torch.float64) * (hi - lo) + lo).to(
        TYPES[t])


def ulp_gaps(got, ref):
    """Per-element ULP distance of finite values (int64; a wrapped difference, farther than
    int64 can count, is the int64 maximum)."""
    a, b = ordered(got), ordered(ref)
    d = torch.maximum(a, b) - torch.minimum(a, b)
    return torch.where(d < 0, torch.iinfo(torch.int64).max, d)


def ulp_distance(got, ref):
    """Largest ULP distance over the elements that are finite in both, or a reason they differ."""
    gn, rn = torch.isnan(got), torch.isnan(ref)
    if not torch.equal(gn, rn):
        return None, f"NaN at {int((gn != rn).sum())} elements where PyTorch differs"
    gi, ri = torch.isinf(got), torch.isinf(ref)
    if not torch.equal(got[gi | ri], ref[gi | ri]):
        return None, "an infinity differs from PyTorch's"
    keep = ~(gn | gi | ri)
    if not keep.any():
        return 0, None
    return int(ulp_gaps(got[keep], ref[keep]).max().item()), None


def worst_element(x, got, ref):
    """' at x=...: got ..., PyTorch ...' for the element farthest from the reference."""
    keep = torch.isfinite(got) & torch.isfinite(ref)
    if not keep.any():
        return ""
    j = int(ulp_gaps(got[keep], ref[keep]).argmax())
    return (f" at x={x[keep][j].item()!r}: got {got[keep][j].item()!r}, "
            f"PyTorch {ref[keep][j].item()!r}")


def run(results, name, kernel, t, inputs, reference, bound, meta):
    out = torch.empty(N, device=DEV, dtype=TYPES[t])
    out.fill_(float("nan"))
    _, kmod = triton_module(PATH)
    try:
        getattr(kmod, kernel)[GRID](*inputs, out, N, **meta, BLOCK=BLOCK)
        torch.cuda.synchronize()
        ref64 = reference(*[x.cpu().double() for x in inputs]).to(DEV)
        ref = ref64.to(TYPES[t])
        worst, why = ulp_distance(out, ref)
    except Exception as e:  # a compile or launch error is a failed case
        results.append((f"{name} {t} vs PyTorch", False, f"{type(e).__name__}: {str(e)[:300]}"))
        return
    if isinstance(bound, tuple):  # ("abs", bound): absolute error
        err = (out.double() - ref64).abs().max().item()
        ok = why is None and err <= bound[1]
        detail = why or f"max abs error 2^{math.log2(err) if err else float('-inf'):.2f} " \
                        f"(documented 2^{math.log2(bound[1]):.2f}; max {worst} ulp)"
        results.append((f"{name} {t} vs PyTorch", ok, detail))
        return
    allowed = bound + (1 if t == "fp32" else 2)
    ok = why is None and worst <= allowed
    detail = why or f"max {worst} ulp (documented {bound}, allowed {allowed})"
    if not ok and why is None:
        detail += worst_element(inputs[0], out, ref)
    results.append((f"{name} {t} vs PyTorch", ok, detail))


def cases(results):
    seed = 100
    for table, kernel in ((TL_UNARY, "tl_unary"), (LD_UNARY, "ld_unary")):
        for name, op, ref, (lo, hi), bounds in table:
            for t, bound in zip(("fp32", "fp64"), bounds):
                if bound is None:
                    continue  # not defined for this type (tl.sqrt_rn fp64 is rejected)
                seed += 1
                meta = dict(OP=op, UPCAST=0) if kernel == "tl_unary" else dict(OP=op)
                name_ = name if kernel == "tl_unary" else f"libdevice.{name}"
                run(results, name_, kernel, t, [uniform(t, seed, lo, hi)], ref, bound, meta)
    for name, op, ref, (lo, hi), bound in LD_FAST:
        seed += 1
        run(results, f"libdevice.{name}", "ld_fast", "fp32", [uniform("fp32", seed, lo, hi)], ref,
            bound, dict(OP=op))
    for name, op, ref, (xlo, xhi), (zlo, zhi), bounds in LD_BINARY:
        for t, bound in zip(("fp32", "fp64"), bounds):
            if bound is None:
                continue
            seed += 2
            run(results, f"libdevice.{name}", "ld_binary", t,
                [uniform(t, seed, xlo, xhi), uniform(t, seed + 1, zlo, zhi)], ref, bound,
                dict(OP=op))
