"""Reductions and scans (test/gpu/scan_kernels.py)."""
import os

import torch

from kcompare import DEV, HERE, run_case, exact, close, gen


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


def cases(results):
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
    # 16 and 32 warps: the warps' partials combine across lanes by butterfly
    # (value / index tuples in lane order).
    for W in (16, 32):
        for T in ("fp32", "i32"):
            run_case(results, f"max/min return_indices {T} {W} warps", path, "maxmin_idx_1d", one,
                     lambda T=T: [rand_input(T, 4096, 11), out(T, 2), out("i32", 2)], [1, 2],
                     dict(BLOCK=4096, num_warps=W), exact)
            run_case(results, f"sum_1d {T} {W} warps", path, "sum_1d", one,
                     lambda T=T: [rand_input(T, 4096, 12), out(T, 1)], [1],
                     dict(BLOCK=4096, num_warps=W), float_check(T))
        run_case(results, f"unsigned max/min/sum u32 {W} warps", path, "unsigned_1d", one,
                 lambda: [rand_input("u32", 4096, 13), out("u32", 3)], [1],
                 dict(BLOCK=4096, num_warps=W), exact)
    # Scans over 2-32 warps: the warp bits' totals go through shared memory in
    # one round (every thread reads all the warps' totals), forwards and
    # reversed, 1-D and along either axis of a 2-D tile split over warps.
    for W in (2, 8, 16, 32):
        for T in ("i32", "fp32"):
            for rev in (0, 1):
                run_case(results, f"cumsum_1d {T} BLOCK=4096 {W} warps reverse={rev}", path,
                         "cumsum_1d", one,
                         lambda T=T: [rand_input(T, 4096, 14), out(T, 4096)], [1],
                         dict(BLOCK=4096, REVERSE=rev, num_warps=W), float_check(T))
    for BM, BN in [(64, 8), (16, 32), (32, 64)]:
        for axis in (0, 1):
            for rev in (0, 1):
                run_case(results, f"scan_2d i32 {BM}x{BN} axis={axis} reverse={rev} 8 warps",
                         path, "scan_2d", one,
                         lambda BM=BM, BN=BN: [rand_input("i32", BM * BN, 15), out("i32", BM * BN)],
                         [1], dict(BM=BM, BN=BN, AXIS=axis, REVERSE=rev, num_warps=8), exact)
            run_case(results, f"scan_tuple_2d running argmax {BM}x{BN} axis={axis} 8 warps", path,
                     "scan_tuple_2d", one,
                     lambda BM=BM, BN=BN: [rand_input("fp32", BM * BN, 16), out("fp32", BM * BN),
                                           out("i32", BM * BN)],
                     [1, 2], dict(BM=BM, BN=BN, AXIS=axis, num_warps=8), exact)
