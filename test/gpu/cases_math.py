"""Math builtins, libdevice wrappers, rounding casts, fp8 and inline asm
(test/gpu/math_kernels.py). Inputs cover special values (+-0, +-inf, NaN,
subnormals, huge/tiny magnitudes, values near 1 and near integers + 0.5)
plus random ones. Results are compared bitwise where Triton and Kiln emit
the same instruction or libdevice call (expected: every case), else within
the ULP bound listed per function (docs/builtins.md, math precision table).
"""
import os

import torch

from kcompare import DEV, HERE, bits, run_case, exact, gen

PATH = os.path.join(HERE, "math_kernels.py")
N = 4096
BLOCK = 256
GRID = ((N + BLOCK - 1) // BLOCK,)
FLOATS = {"fp32": torch.float32, "fp64": torch.float64, "fp16": torch.float16,
          "bf16": torch.bfloat16}

TL_UNARY = ["sigmoid", "erf", "floor", "ceil", "log2", "sin", "cos", "sqrt_rn", "exp", "exp2",
            "log", "sqrt", "rsqrt", "abs", "x.sigmoid", "tl.math.erf"]
LD_UNARY = ["tanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "erf", "erfc",
            "erfinv", "rint", "round", "trunc", "nearbyint", "rsqrt", "sqrt_rn", "sinh", "cosh",
            "atan", "asin", "acos", "cbrt", "lgamma", "tan", "sin", "cos", "floor", "ceil", "abs",
            "asinh", "acosh", "atanh", "normcdf", "tgamma", "sqrt"]
LD_FAST = ["fast_expf", "fast_logf", "fast_tanf", "fast_sinf", "fast_cosf", "fast_log2f",
           "fast_exp10f", "fast_log10f", "fast_powf"]
LD_BINARY = ["pow", "atan2", "hypot", "fmod", "copysign", "fdim", "nextafter", "remainder"]

# Expected ULP distance Kiln vs Triton: 0 everywhere (same PTX instruction or the same libdevice
# function); a nonzero bound here would be a finding to record in docs/language.md.
ULP = {}
FP8 = True


def special_values(dt):
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 1e-3, -1e-3, 10.0, -10.0, 88.0,
            -88.0, 100.0, 1e4, -1e4, 1e30, -1e30, 1e-30, 1e-40, -1e-40, float("inf"),
            float("-inf"), float("nan"), 0.999999, 1.000001, 3.14159265, -3.14159265, 0.7, -0.7,
            0.9999, -0.9999]
    t = torch.tensor(vals, dtype=torch.float64)
    return t.to(dt)


def float_input(t, seed, lo=-4.0, hi=4.0):
    dt = FLOATS[t]
    g = gen(seed)
    x = (torch.rand(N, device=DEV, generator=g, dtype=torch.float64) * (hi - lo) + lo).to(dt)
    sp = special_values(dt).to(DEV)
    x[:sp.numel()] = sp
    return x


def ordered(t):
    """Float bits as integers that order like the values (for ULP distances)."""
    if t.dtype == torch.float64:
        i = t.view(torch.int64)
        lo = torch.iinfo(torch.int64).min
    else:
        t = t.float() if t.element_size() == 2 else t  # fp16/bf16: compare in their own grid
        i = t.view(torch.int32).to(torch.int64)
        lo = -(1 << 31)
    return torch.where(i < 0, lo - i, i)


def ulp(bound):
    """Equal NaN pattern, equal infinities, else at most `bound` ULPs apart."""
    if bound == 0:
        return exact

    def check(ks, ts):
        worst = 0
        for i, (k, t) in enumerate(zip(ks, ts)):
            if not k.dtype.is_floating_point:
                if not torch.equal(k, t):
                    return False, f"output {i}: integer output differs"
                continue
            kn, tn = torch.isnan(k), torch.isnan(t)
            if not torch.equal(kn, tn):
                return False, f"output {i}: NaN pattern differs"
            d = (ordered(k[~kn]) - ordered(t[~tn])).abs()
            w = d.max().item() if d.numel() else 0
            worst = max(worst, w)
            if w > bound:
                return False, f"output {i}: {w} ulp > {bound}"
        return True, f"max {worst} ulp (bound {bound})"
    return check


def empty(t, n=N):
    dt = FLOATS.get(t) or {"i32": torch.int32, "i64": torch.int64, "i8": torch.int8,
                           "u8": torch.uint8, "u32": torch.uint32, "u64": torch.uint64,
                           "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}[t]
    return torch.empty(n, dtype=dt, device=DEV)


def ints(t, seed):
    g = gen(seed)
    x = torch.randint(-2**62, 2**62, (N,), device=DEV, generator=g, dtype=torch.int64)
    if t in ("i32", "u32"):
        x = x.to(torch.int32)
        return x.view(torch.uint32) if t == "u32" else x
    return x.view(torch.uint64) if t == "u64" else x


def fp8e5_to_bf16_check(ks, ts):
    """Triton 3.6 widens fp8e5 to bf16 with a shift and a multiply by 2**112, which turns the
    fp8 infinities and NaNs into finite numbers (NaN -> 114688.0). Kiln converts exactly (through
    fp16), so: the fp8 bytes bitwise equal to Triton's; the bf16 values bitwise equal to PyTorch's
    conversion of them (NaN as NaN), and to Triton's wherever the fp8 value is finite."""
    (kq, ky), (tq, ty) = ks, ts
    ok, detail = exact([kq], [tq])
    if not ok:
        return ok, detail
    ref = kq.to(torch.bfloat16)
    nan = torch.isnan(ref)
    if not torch.equal(torch.isnan(ky), nan) or not torch.equal(bits(ky)[~nan], bits(ref)[~nan]):
        return False, "output 1: differs from PyTorch's fp8e5 -> bf16"
    finite = torch.isfinite(ref)
    if not torch.equal(bits(ky)[finite], bits(ty)[finite]):
        return False, "output 1: a finite value differs from Triton's"
    return True, (f"bitwise equal to PyTorch; to Triton on the {int(finite.sum())} finite values "
                  f"(Triton turns {int((~finite).sum())} fp8 inf/NaN into finite numbers)")


def cases(results):
    # tl.* math on fp32 / fp64, and fp16/bf16 through an explicit upcast (Triton rejects them).
    for op, name in enumerate(TL_UNARY):
        for t in ("fp32", "fp64"):
            if name == "sqrt_rn" and t == "fp64":
                continue
            run_case(results, f"tl.{name} {t}", PATH, "tl_unary", GRID,
                     lambda t=t: [float_input(t, 1), empty(t), N], [1],
                     dict(OP=op, UPCAST=0, BLOCK=BLOCK), ulp(ULP.get(name, 0)))
        for t in ("fp16", "bf16"):
            run_case(results, f"tl.{name} {t} (x.to(fp32))", PATH, "tl_unary", GRID,
                     lambda t=t: [float_input(t, 2), empty(t), N], [1],
                     dict(OP=op, UPCAST=1, BLOCK=BLOCK), ulp(0))
    for t in ("fp16", "bf16"):
        run_case(results, f"tl.abs {t}", PATH, "tl_unary", GRID,
                 lambda t=t: [float_input(t, 3), empty(t), N], [1],
                 dict(OP=13, UPCAST=0, BLOCK=BLOCK), exact)
    for op, name in enumerate(["div_rn", "fdiv", "clamp", "clamp ALL", "fma", "maximum ALL",
                               "minimum"]):
        for t in ("fp32", "fp64", "fp16", "bf16"):
            if op == 0 and t != "fp32":
                continue
            run_case(results, f"tl.{name} {t}", PATH, "tl_binary", GRID,
                     lambda t=t: [float_input(t, 4), float_input(t, 5, 0.1, 3.0), empty(t), N],
                     [2], dict(OP=op, BLOCK=BLOCK), exact)
    for t in ("i32", "u32", "i64", "u64"):
        run_case(results, f"tl.umulhi {t}", PATH, "umulhi_k", GRID,
                 lambda t=t: [ints(t, 6), ints(t, 7), empty(t), N], [2], dict(BLOCK=BLOCK), exact)

    # libdevice: the same __nv_* function on both sides, so bitwise.
    for op, name in enumerate(LD_UNARY):
        for t in ("fp32", "fp64"):
            run_case(results, f"libdevice.{name} {t}", PATH, "ld_unary", GRID,
                     lambda t=t: [float_input(t, 8), empty(t), N], [1],
                     dict(OP=op, BLOCK=BLOCK), ulp(ULP.get(name, 0)))
    for op, name in enumerate(LD_FAST):
        run_case(results, f"libdevice.{name}", PATH, "ld_fast", GRID,
                 lambda: [float_input("fp32", 9), empty("fp32"), N], [1],
                 dict(OP=op, BLOCK=BLOCK), exact)
    for op, name in enumerate(LD_BINARY):
        for t in ("fp32", "fp64"):
            run_case(results, f"libdevice.{name} {t}", PATH, "ld_binary", GRID,
                     lambda t=t: [float_input(t, 10), float_input(t, 11), empty(t), N], [2],
                     dict(OP=op, BLOCK=BLOCK), exact)
    for t in ("fp32", "fp64"):
        run_case(results, f"libdevice.pow {t}, int32", PATH, "ld_powi", GRID,
                 lambda t=t: [float_input(t, 12),
                              torch.randint(-8, 9, (N,), device=DEV, generator=gen(13),
                                            dtype=torch.int32), empty(t), N], [2],
                 dict(BLOCK=BLOCK), exact)
        for op, name in enumerate(["isnan", "isinf", "signbit", "isfinite"]):
            run_case(results, f"libdevice.{name} {t}", PATH, "ld_pred", GRID,
                     lambda t=t: [float_input(t, 14), empty("i32"), N], [1],
                     dict(OP=op, BLOCK=BLOCK), exact)
    for t in ("i32", "i64"):
        for op, name in enumerate(["popc", "clz", "brev", "ffs"]):
            if name in ("popc", "clz", "ffs") and t == "i64":
                continue  # int32 results: the output is i32 (see ld_int's signature)
            run_case(results, f"libdevice.{name} {t}", PATH, "ld_int", GRID,
                     lambda t=t: [ints(t, 15), empty(t), N], [1], dict(OP=op, BLOCK=BLOCK), exact)

    # Casts: rounding modes, bitcast, int8 quantization.
    for s, d in (("fp32", "fp16"), ("fp32", "bf16"), ("fp64", "fp32")):
        for rtz in (0, 1):
            run_case(results, f"cast {s}->{d} {'rtz' if rtz else 'rtne'}", PATH, "cast_round",
                     GRID, lambda s=s, d=d: [float_input(s, 16, -7e4, 7e4), empty(d), N], [1],
                     dict(RTZ=rtz, BLOCK=BLOCK), exact)
    run_case(results, "bitcast fp32->int32", PATH, "bitcast_k", GRID,
             lambda: [float_input("fp32", 17), empty("i32"), N], [1], dict(BLOCK=BLOCK), exact)
    run_case(results, "int8 quantizer (clamp, rint, int8 store)", PATH, "quant_i8", GRID,
             lambda: [float_input("fp32", 18, -1.5, 1.5).nan_to_num(0.0), empty("i8"), N], [1],
             dict(BLOCK=BLOCK), exact)

    # fp8 round trips (sm_89+): the stored fp8 bytes and the value read back, bitwise.
    if FP8 and torch.cuda.get_device_capability() >= (8, 9):
        for f8 in ("fp8e4nv", "fp8e5"):
            for s in ("fp32", "fp16", "bf16"):
                check = fp8e5_to_bf16_check if (f8, s) == ("fp8e5", "bf16") else exact
                run_case(results, f"fp8 round trip {s}->{f8}->{s}", PATH, "fp8_roundtrip", GRID,
                         lambda s=s, f8=f8: [float_input(s, 19, -600.0, 600.0), empty(f8),
                                             empty(s), N], [1, 2], dict(BLOCK=BLOCK), check)

    # Inline assembly.
    run_case(results, "inline_asm shf.l.wrap (pack 1)", PATH, "asm_shf", GRID,
             lambda: [ints("u32", 20), empty("u32"), N], [1], dict(BLOCK=BLOCK), exact)
    run_case(results, "inline_asm 2 results, pack 4 bytes", PATH, "asm_pack4", GRID,
             lambda: [torch.randint(0, 256, (N,), device=DEV, generator=gen(21),
                                    dtype=torch.uint8), empty("u8"), empty("u8"), N], [1, 2],
             dict(BLOCK=BLOCK), exact)
