#!/usr/bin/env python3
"""Small kernels run under Triton 3.6 and under Kiln from the same file, outputs compared.

Covers test/gpu/random_kernels.py (every random builtin: bitwise for integer results and
uniform floats, a tolerance for the normals) and test/gpu/scan_kernels.py (reductions and
scans: bitwise for integers and indices, a relative tolerance for float sums/products). The
launch signatures are documented at the top of each kernel file. Outputs are poisoned before
each run.

  python3 test/gpu/compare_kernels.py [--only random|scan] [--json OUT]
Prints one line per case and "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import importlib.util
import json
import os
import sys
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kiln  # noqa: E402

DEV = "cuda"
_modules = {}


def triton_module(path):
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _modules[path] = (mod, kiln.jit(path))
    return _modules[path]


def poison(t):
    if t.dtype.is_floating_point:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0xA5)


def run_case(results, name, path, kernel, grid, make, outputs, meta, check):
    """make(): fresh argument list (same values every call); outputs: indices of output args."""
    try:
        tmod, kmod = triton_module(path)
        got = {}
        for who, k in (("triton", getattr(tmod, kernel)), ("kiln", getattr(kmod, kernel))):
            args = make()
            for i in outputs:
                poison(args[i])
            k[grid](*args, **meta)
            torch.cuda.synchronize()
            got[who] = [args[i].clone() for i in outputs]
        ok, detail = check(got["kiln"], got["triton"])
    except Exception as e:  # a compile or launch error is a failed case, not a stop
        traceback.print_exc()
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    results.append((name, ok, detail))


def bits(t):
    return t.view(torch.int64 if t.element_size() == 8 else
                  torch.int32 if t.element_size() == 4 else
                  torch.int16 if t.element_size() == 2 else torch.uint8)


def exact(ks, ts):
    for i, (k, t) in enumerate(zip(ks, ts)):
        if not torch.equal(bits(k), bits(t)):
            n = (bits(k) != bits(t)).sum().item()
            return False, f"output {i}: {n} of {t.numel()} differ"
    return True, "bitwise equal"


def close(rtol, atol=0.0):
    def check(ks, ts):
        worst = 0.0
        for i, (k, t) in enumerate(zip(ks, ts)):
            if k.dtype.is_floating_point:
                kf, tf = k.double(), t.double()
                if torch.isnan(kf).any() != torch.isnan(tf).any():
                    return False, f"output {i}: NaN pattern differs"
                err = ((kf - tf).abs() / (tf.abs() + 1e-30)).nan_to_num(0).max().item()
                if not torch.allclose(kf, tf, rtol=rtol, atol=atol, equal_nan=True):
                    return False, f"output {i}: max rel err {err:.3g} > {rtol}"
                worst = max(worst, err)
            elif not torch.equal(bits(k), bits(t)):
                return False, f"output {i}: integer output differs"
        return True, f"max rel err {worst:.3g} (rtol {rtol})"
    return check


def gen(seed):
    return torch.Generator(device=DEV).manual_seed(seed)


# ----------------------------------------------------------------------------------------------
def random_cases(results):
    path = os.path.join(HERE, "random_kernels.py")
    N, BLOCK = 1000, 128
    grid = ((N + BLOCK - 1) // BLOCK,)
    i32 = lambda n=N: torch.empty(n, dtype=torch.int32, device=DEV)
    f32 = lambda n=N: torch.empty(n, dtype=torch.float32, device=DEV)
    i64 = lambda n=N: torch.empty(n, dtype=torch.int64, device=DEV)
    for rounds in (7, 10):
        m = dict(N_ROUNDS=rounds, BLOCK=BLOCK)
        for seed in (12345, -7, 2**40 + 5):
            run_case(results, f"randint seed={seed} rounds={rounds}", path, "randint_kernel", grid,
                     lambda s=seed: [i32(), s, N], [0], m, exact)
            run_case(results, f"rand seed={seed} rounds={rounds}", path, "rand_kernel", grid,
                     lambda s=seed: [f32(), s, N], [0], m, exact)
        run_case(results, f"randint4x rounds={rounds}", path, "randint4x_kernel", grid,
                 lambda: [i32(), i32(), i32(), i32(), 99, N], [0, 1, 2, 3], m, exact)
        run_case(results, f"rand4x rounds={rounds}", path, "rand4x_kernel", grid,
                 lambda: [f32(), f32(), f32(), f32(), 99, N], [0, 1, 2, 3], m, exact)
        # Bitwise too: log/sin/cos come from libdevice, as in Triton.
        run_case(results, f"randn rounds={rounds}", path, "randn_kernel", grid,
                 lambda: [f32(), 4242, N], [0], m, exact)
        run_case(results, f"randn4x rounds={rounds}", path, "randn4x_kernel", grid,
                 lambda: [f32(), f32(), f32(), f32(), 4242, N], [0, 1, 2, 3], m, exact)
    m = dict(N_ROUNDS=10, BLOCK=BLOCK)
    run_case(results, "rand/randint int64 offsets near 2**32", path, "rand_i64_offsets_kernel", grid,
             lambda: [f32(), i32(), 77, 2**32 - 500, N], [0, 1], m, exact)
    run_case(results, "rand/randint scalar offsets", path, "rand_scalar_kernel", (64,),
             lambda: [f32(64), i32(64), 31337, 1000], [0, 1], dict(N_ROUNDS=10), exact)
    run_case(results, "randint uint64 seed", path, "randint_u64_seed_kernel", grid,
             lambda: [i32(), 123456789, 77, N], [0], m, exact)
    run_case(results, "randint uint32 offsets", path, "randint_u32_offsets_kernel", grid,
             lambda: [i32(), 5, 2**31 - 100, N], [0], m, exact)
    run_case(results, "randint 2-D offsets", path, "randint_2d_kernel", ((N + 15) // 16,),
             lambda: [i32(N * 16), 5, N], [0], dict(N_ROUNDS=10, BLOCK=16, BLOCK2=16), exact)
    run_case(results, "philox 4x32", path, "philox_kernel", grid,
             lambda: [i32(), i32(), i32(), i32(), 2**40 + 3, N], [0, 1, 2, 3], m, exact)
    run_case(results, "philox 4x64", path, "philox64_kernel", grid,
             lambda: [i64(), i64(), i64(), i64(), 2**40 + 3, N], [0, 1, 2, 3], m, exact)

    def uniform_normal_args():
        g = gen(5)
        x = torch.randint(-2**31, 2**31 - 1, (N,), dtype=torch.int32, device=DEV, generator=g)
        y = torch.randint(-2**62, 2**62, (N,), dtype=torch.int64, device=DEV, generator=g)
        return [f32(), f32(), f32(), f32(), x, y, N]

    run_case(results, "uint_to_uniform_float / pair_uniform_to_normal", path, "uniform_normal_kernel",
             grid, uniform_normal_args, [0, 1, 2, 3], dict(BLOCK=BLOCK), exact)


# ----------------------------------------------------------------------------------------------
TORCH = {"i8": torch.int8, "u8": torch.uint8, "i32": torch.int32, "u32": torch.uint32,
         "i64": torch.int64, "u64": torch.uint64, "fp16": torch.float16, "fp32": torch.float32}


def rand_input(t, n, seed, ties=False):
    g = gen(seed)
    dt = TORCH[t]
    if dt.is_floating_point:
        x = torch.rand(n, device=DEV, generator=g) * 2 - 1
        if ties:
            x = (x * 4).round() / 4
        return x.to(dt)
    lo, hi = (0, 100) if t.startswith("u") else (-50, 51)
    if ties:
        lo, hi = (0, 5) if t.startswith("u") else (-3, 4)
    x = torch.randint(lo, hi, (n,), device=DEV, generator=g, dtype=torch.int64)
    if dt in (torch.uint32, torch.uint64):
        return x.to(torch.int32 if dt == torch.uint32 else torch.int64).view(dt)
    return x.to(dt)


def out(t, n):
    dt = TORCH[t]
    if dt in (torch.uint32, torch.uint64):
        return torch.empty(n, dtype=torch.int32 if dt == torch.uint32 else torch.int64,
                           device=DEV).view(dt)
    return torch.empty(n, dtype=dt, device=DEV)


def float_check(t):
    """Sums and products in another association order: a relative bound, plus an absolute
    one for partial sums that cancel to near zero (fp16 rounds each partial sum)."""
    if not TORCH[t].is_floating_point:
        return exact
    return close(2e-3, 3e-2) if t == "fp16" else close(1e-5, 1e-5)


def scan_cases(results):
    path = os.path.join(HERE, "scan_kernels.py")
    one = (1,)
    for T, R in [("i32", "i32"), ("i8", "i32"), ("u8", "u32"), ("i64", "i64"), ("fp32", "fp32"),
                 ("fp16", "fp16")]:
        for B in (128, 1024):
            for rev in (0, 1):
                run_case(results, f"cumsum_1d {T}->{R} BLOCK={B} reverse={rev}", path, "cumsum_1d",
                         one, lambda T=T, R=R, B=B: [rand_input(T, B, 1), out(R, B)], [1],
                         dict(BLOCK=B, REVERSE=rev, num_warps=4), float_check(R))
    run_case(results, "cumsum dtype=int64 from int8", path, "cumsum_dtype_1d", one,
             lambda: [rand_input("i8", 128, 2), out("i64", 128)], [1], dict(BLOCK=128), exact)
    for T in ("i32", "fp32"):
        for rev in (0, 1):
            run_case(results, f"cumprod_1d {T} reverse={rev}", path, "cumprod_1d", one,
                     lambda T=T: [rand_input(T, 32, 3), out(T, 32)], [1],
                     dict(BLOCK=32, REVERSE=rev), float_check(T))
    shapes = [(16, 32), (64, 8), (4, 256)]
    for BM, BN in shapes:
        for axis in (0, 1):
            for T in ("i32", "fp32"):
                for rev in (0, 1):
                    run_case(results, f"scan_2d {T} {BM}x{BN} axis={axis} reverse={rev}", path,
                             "scan_2d", one,
                             lambda T=T, BM=BM, BN=BN: [rand_input(T, BM * BN, 4), out(T, BM * BN)],
                             [1], dict(BM=BM, BN=BN, AXIS=axis, REVERSE=rev), float_check(T))
                n = BN if axis == 0 else BM
                run_case(results, f"reduce_2d product {T} {BM}x{BN} axis={axis}", path, "reduce_2d",
                         one, lambda T=T, BM=BM, BN=BN, n=n: [rand_input(T, BM * BN, 5), out(T, n)],
                         [1], dict(BM=BM, BN=BN, AXIS=axis), float_check(T))
            run_case(results, f"scan_tuple_2d running argmax {BM}x{BN} axis={axis}", path,
                     "scan_tuple_2d", one,
                     lambda BM=BM, BN=BN: [rand_input("fp32", BM * BN, 6), out("fp32", BM * BN),
                                           out("i32", BM * BN)],
                     [1, 2], dict(BM=BM, BN=BN, AXIS=axis), exact)
            n = BN if axis == 0 else BM
            for fn in ("argmax_2d", "argmin_2d"):
                for T in ("fp32", "fp16", "i32"):
                    for ties in (False, True):
                        run_case(results, f"{fn} {T} {BM}x{BN} axis={axis} ties={ties}", path, fn,
                                 one,
                                 lambda T=T, BM=BM, BN=BN, n=n, ties=ties:
                                 [rand_input(T, BM * BN, 7, ties), out("i32", n)],
                                 [1], dict(BM=BM, BN=BN, AXIS=axis, TIE_LEFT=1), exact)
            for T in ("i32", "i64"):
                run_case(results, f"xor_sum/reduce_or {T} {BM}x{BN} axis={axis}", path, "bitwise_2d",
                         one, lambda T=T, BM=BM, BN=BN, n=n: [rand_input(T, BM * BN, 8), out(T, 2 * n)],
                         [1], dict(BM=BM, BN=BN, AXIS=axis), exact)
    for T in ("fp32", "i32"):
        run_case(results, f"max/min return_indices {T}", path, "maxmin_idx_1d", one,
                 lambda T=T: [rand_input(T, 128, 9), out(T, 2), out("i32", 2)], [1, 2],
                 dict(BLOCK=128), exact)
    for T, R in (("u32", "u32"), ("u64", "u64"), ("u8", "u32")):
        run_case(results, f"unsigned max/min/sum {T}", path, "unsigned_1d", one,
                 lambda T=T, R=R: [rand_input(T, 128, 10), out(R, 3)], [1], dict(BLOCK=128), exact)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["random", "scan"])
    ap.add_argument("--json")
    a = ap.parse_args()
    results = []
    if a.only in (None, "random"):
        random_cases(results)
    if a.only in (None, "scan"):
        scan_cases(results)
    for name, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    npass = sum(1 for r in results if r[1])
    print(f"{npass} passed, {len(results) - npass} failed")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"case": n, "ok": o, "detail": d} for n, o, d in results], f, indent=1)
    sys.exit(0 if npass == len(results) else 1)


if __name__ == "__main__":
    main()
