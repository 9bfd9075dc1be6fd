"""Sorting, bitonic merges, top-k, flips, gathers, histograms and swizzle2d (test/gpu/sort_kernels.py).

Everything is compared bitwise: Kiln runs Triton's bitonic network step for step (so even NaN,
-0.0/+0.0 and duplicates end up where Triton puts them), and flips, gathers, histograms and
swizzles move or count values without arithmetic on them.
"""
import os

import torch

from kcompare import DEV, HERE, run_case, exact, close, gen


TORCH = {"i8": torch.int8, "u8": torch.uint8, "i16": torch.int16, "i32": torch.int32,
         "u32": torch.uint32, "i64": torch.int64, "fp16": torch.float16, "bf16": torch.bfloat16,
         "fp32": torch.float32, "fp64": torch.float64}


def rand_input(t, n, seed, ties=False):
    """Random values of dtype t; with ties, few distinct values (many duplicates)."""
    g = gen(seed)
    dt = TORCH[t]
    if dt.is_floating_point:
        x = torch.randn(n, device=DEV, generator=g, dtype=torch.float64) * 100
        if ties:
            x = (x / 50).round()
        return x.to(dt)
    if t == "u32":
        x = torch.randint(0, 2**32, (n,), device=DEV, generator=g, dtype=torch.int64)
        if ties:
            x = x % 5 + (2**31 - 2)  # straddles the signed/unsigned boundary
        return (x - (x >= 2**31).to(torch.int64) * 2**32).to(torch.int32).view(torch.uint32)
    info = torch.iinfo(dt)
    lo, hi = (info.min, info.max + 1) if dt != torch.int64 else (-2**62, 2**62)
    if ties:
        lo, hi = (0, 4) if t == "u8" else (-2, 3)
    return torch.randint(lo, hi, (n,), device=DEV, generator=g, dtype=torch.int64).to(dt)


def specials(t, n, seed):
    """Floats with NaN, +-0.0, +-inf and duplicates: Triton's network is reproduced exactly."""
    x = rand_input(t, n, seed, ties=True).to(torch.float32)
    pattern = torch.tensor([float("nan"), 0.0, -0.0, float("inf"), -float("inf"), 1.0, -0.0, 0.0],
                           device=DEV)
    x[::3] = pattern.repeat(n // 8 + 1)[: x[::3].numel()]
    return x.to(TORCH[t])


def out(t, n):
    return torch.empty(n, dtype=torch.int32, device=DEV).view(torch.uint32) if t == "u32" else \
        torch.empty(n, dtype=TORCH[t], device=DEV)


def cases(results):
    path = os.path.join(HERE, "sort_kernels.py")
    one = (1,)
    for T in ("fp32", "fp16", "bf16", "fp64", "i8", "u8", "i16", "i32", "u32", "i64"):
        for B in (32, 128, 1024):
            for desc in (0, 1):
                for ties in (False, True):
                    run_case(results, f"sort_1d {T} BLOCK={B} desc={desc} ties={ties}", path,
                             "sort_1d", one,
                             lambda T=T, B=B, ties=ties: [rand_input(T, B, 1, ties), out(T, B)],
                             [1], dict(BLOCK=B, DESC=desc), exact)
    for T in ("fp32", "fp16"):
        for desc in (0, 1):
            run_case(results, f"sort_1d {T} NaN/-0.0/inf desc={desc}", path, "sort_1d", one,
                     lambda T=T: [specials(T, 256, 2), out(T, 256)], [1],
                     dict(BLOCK=256, DESC=desc), exact)
    for BM, BN in ((4, 256), (16, 32), (64, 8), (2, 1024)):
        for T in ("fp32", "i32", "fp16", "u8"):
            for desc in (0, 1):
                run_case(results, f"sort_2d {T} {BM}x{BN} desc={desc}", path, "sort_2d", one,
                         lambda T=T, BM=BM, BN=BN: [rand_input(T, BM * BN, 3, True), out(T, BM * BN)],
                         [1], dict(BM=BM, BN=BN, DESC=desc), exact)
    for BM, BN in ((4, 256), (16, 32), (2, 1024)):
        for T in ("fp32", "i32", "fp16", "u8"):
            for desc in (0, 1):
                for srt in (0, 1):
                    run_case(results, f"merge_2d {T} {BM}x{BN} desc={desc} sorted={srt}", path,
                             "merge_2d", one,
                             lambda T=T, BM=BM, BN=BN: [rand_input(T, BM * BN, 12, True),
                                                        out(T, BM * BN)],
                             [1], dict(BM=BM, BN=BN, DESC=desc, SORTED=srt), exact)
    for BM, BN, K in ((16, 64, 8), (4, 256, 16), (8, 32, 32), (4, 128, 2)):
        for T in ("fp32", "i32", "u32"):
            run_case(results, f"topk_2d {T} {BM}x{BN} k={K}", path, "topk_2d", one,
                     lambda T=T, BM=BM, BN=BN, K=K: [rand_input(T, BM * BN, 4), out(T, BM * K)],
                     [1], dict(BM=BM, BN=BN, K=K), exact)
    for BM, BN in ((16, 32), (4, 256), (64, 8)):
        for T in ("fp32", "fp16", "i8", "i64"):
            for dim in (0, 1, -1):
                run_case(results, f"flip_2d {T} {BM}x{BN} dim={dim}", path, "flip_2d", one,
                         lambda T=T, BM=BM, BN=BN: [rand_input(T, BM * BN, 5), out(T, BM * BN)],
                         [1], dict(BM=BM, BN=BN, DIM=dim), exact)
    for BM, BN, BK in ((16, 64, 32), (64, 16, 8), (32, 32, 64), (4, 128, 128)):
        for axis in (0, 1):
            n_idx = BM * BK if axis == 1 else BK * BN
            size = BN if axis == 1 else BM
            for T in ("fp32", "fp16", "i8", "i64"):
                for IT in ("i32", "i64", "u8"):
                    if IT == "u8" and size > 256:
                        continue

                    def make(T=T, IT=IT, BM=BM, BN=BN, n_idx=n_idx, size=size):
                        idx = torch.randint(0, size, (n_idx,), device=DEV, generator=gen(7))
                        return [rand_input(T, BM * BN, 6), idx.to(TORCH[IT]), out(T, n_idx)]
                    run_case(results, f"gather_2d {T}[{IT}] {BM}x{BN} k={BK} axis={axis}", path,
                             "gather_2d", one, make, [2], dict(BM=BM, BN=BN, BK=BK, AXIS=axis),
                             exact)
    for B in (128, 1024):
        for bins in (8, 32, 64, 256, 2048):
            for masked in (0, 1):
                def make(B=B, bins=bins):
                    x = torch.randint(0, bins, (B,), device=DEV, generator=gen(8))
                    x[::5] = 0
                    x[1::7] = bins - 1  # edge bins
                    return [x.to(torch.int32), out("i32", bins)]
                run_case(results, f"histogram_1d BLOCK={B} bins={bins} masked={masked}", path,
                         "histogram_1d", one, make, [1], dict(BLOCK=B, BINS=bins, MASKED=masked),
                         exact)
    for bins in (8, 64):
        def make(bins=bins):
            x = torch.randint(-40, bins + 40, (256,), device=DEV, generator=gen(9))
            return [x.to(torch.int32), out("i32", bins)]
        run_case(results, f"histogram_oob_1d bins={bins} (implementation-defined in Triton)",
                 path, "histogram_oob_1d", one, make, [1], dict(BLOCK=256, BINS=bins), exact)
    for SI, SJ, SG in ((8, 4, 3), (16, 16, 4), (4, 8, 8), (32, 2, 5)):
        run_case(results, f"swizzle2d {SI}x{SJ} group={SG}", path, "swizzle2d_2d", one,
                 lambda SI=SI, SJ=SJ: [out("i32", SI * SJ), out("i32", SI * SJ)], [0, 1],
                 dict(SI=SI, SJ=SJ, SG=SG), exact)
    for BM, BN in ((16, 64), (4, 256), (64, 8)):
        for dim in (0, 1):
            run_case(results, f"softmax_2d {BM}x{BN} dim={dim}", path, "softmax_2d", one,
                     lambda BM=BM, BN=BN: [rand_input("fp32", BM * BN, 10) / 30,
                                           out("fp32", BM * BN)],
                     [1], dict(BM=BM, BN=BN, DIM=dim), close(1e-5, 1e-7))
    run_case(results, "philox_impl_1d uint32 7 rounds", path, "philox_impl_1d", one,
             lambda: [rand_input("u32", 128, 11), out("u32", 4 * 128)], [1], dict(BLOCK=128), exact)
