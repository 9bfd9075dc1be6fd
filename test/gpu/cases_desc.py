"""Tensor descriptors (test/gpu/desc_kernels.py): copies and tiles at unaligned shapes with zero
and NaN padding, a descriptor through a helper in a loop, and descriptor atomics. Triton 3.6 uses
TMA for them on the H100; Kiln uses masked vector accesses. Every output is compared bitwise."""
import os
import traceback

import torch

import kcompare
from kcompare import DEV, HERE, bits, exact, gen, run_case, triton_module

TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
         "i32": torch.int32}


def _allocator(size, alignment, stream):
    # Triton's in-kernel descriptors need global scratch for the TMA
    # descriptor (triton.set_allocator); Kiln's need none.
    return torch.empty(size, device=DEV, dtype=torch.int8)


def rand(t, shape, seed):
    g = gen(seed)
    dt = TORCH[t]
    if dt.is_floating_point:
        return (torch.rand(shape, device=DEV, generator=g) * 2 - 1).to(dt)
    return torch.randint(-100, 100, shape, device=DEV, generator=g,
                         dtype=torch.int64).to(dt)


def cdiv(a, b):
    return (a + b - 1) // b


def inside_untouched(M, N):
    """[M, N] bitwise equal to Triton's; everything else still Kiln's poison.
    Triton's TMA store writes past N up to the row's next 16-byte boundary
    (measured on the H100: columns 77-79 of a 77-wide tensor get the
    load's padding), which the descriptor's bounds say it must not, so the
    rest is checked against the poison rather than against Triton."""
    def check(ks, ts):
        ok, detail = exact([ks[0][:M, :N]], [ts[0][:M, :N]])
        if not ok:
            return ok, detail
        poison = ks[0].clone()
        kcompare.poison(poison)
        outside = torch.ones_like(ks[0], dtype=torch.bool)
        outside[:M, :N] = False
        same = torch.equal(bits(ks[0])[outside], bits(poison)[outside])
        return same, ("bitwise equal inside, untouched outside" if same
                      else "Kiln wrote outside the descriptor's bounds")
    return check


def cases(results):
    import triton
    triton.set_allocator(_allocator)
    path = os.path.join(HERE, "desc_kernels.py")
    BM, BN = 16, 32
    for T in ("fp32", "fp16", "bf16"):
        for M, N in ((50, 77), (64, 96), (1, 8)):
            # Row strides padded to 16 bytes (TMA's rule), larger than N.
            sx = cdiv(N + 3, 8) * 8
            for NAN in (0, 1):
                grid = (cdiv(M, BM) + 1, cdiv(N, BN) + 1)
                run_case(results, f"desc_copy {T} {M}x{N} nan={NAN}", path, "desc_copy", grid,
                         lambda T=T, M=M, N=N, sx=sx:
                         [rand(T, (M, sx), 1), torch.empty((M + 2, sx + 8), dtype=TORCH[T],
                                                           device=DEV), M, N, sx, sx + 8],
                         [1], dict(BM=BM, BN=BN, NAN=NAN), inside_untouched(M, N))
                tg = (cdiv(M, BM), cdiv(N, BN))
                run_case(results, f"desc_tiles {T} {M}x{N} nan={NAN}", path, "desc_tiles", tg,
                         lambda T=T, M=M, N=N, sx=sx, tg=tg:
                         [rand(T, (M, sx), 2), torch.empty((tg[0] * BM, tg[1] * BN),
                                                           dtype=TORCH[T], device=DEV),
                          M, N, sx],
                         [1], dict(BM=BM, BN=BN, NAN=NAN), exact)
    for M, K in ((50, 300), (64, 64), (33, 1000)):
        sx = cdiv(K, 4) * 4
        run_case(results, f"desc_rowsum {M}x{K}", path, "desc_rowsum", (cdiv(M, 32),),
                 lambda M=M, K=K, sx=sx: [rand("i32", (M, sx), 4),
                                          torch.empty(M, dtype=torch.int32, device=DEV),
                                          M, K, sx],
                 [1], dict(BM=32, BK=64), exact)
    for n, bins in ((1000, 100), (128, 128), (5, 7)):
        hist(results, path, n, bins)
    # Host TensorDescriptor parameters (Triton's class on both sides: Kiln
    # reads base, shape, strides, block_shape and padding from it).
    from triton.tools.tensor_descriptor import TensorDescriptor
    for T in ("fp32", "fp16", "bf16"):
        for M, N in ((50, 77), (64, 96)):
            sx = cdiv(N + 3, 8) * 8
            for nan in (False, True):
                def make(T=T, M=M, N=N, sx=sx, nan=nan):
                    x = rand(T, (M, sx), 7)
                    y = torch.empty((M + 2, sx + 8), dtype=TORCH[T], device=DEV)
                    kcompare.poison(y)
                    xd = TensorDescriptor(x, [M, N], [sx, 1], [BM, BN],
                                          padding="nan" if nan else "zero")
                    yd = TensorDescriptor(y, [M, N], [sx + 8, 1], [BM, BN])
                    return [xd, yd, y]
                host_desc(results, path, f"host_copy {T} {M}x{N} nan={nan}",
                          (cdiv(M, BM) + 1, cdiv(N, BN) + 1), make, M, N,
                          dict(BM=BM, BN=BN))


def host_desc(results, path, name, grid, make, M, N, meta):
    """host_copy under both: [M, N] bitwise equal, Kiln's rest untouched."""
    try:
        tmod, kmod = triton_module(path)
        got = {}
        for who, mod in (("triton", tmod), ("kiln", kmod)):
            xd, yd, y = make()
            mod.host_copy[grid](xd, yd, **meta)
            torch.cuda.synchronize()
            got[who] = y.clone()
        ok, detail = inside_untouched(M, N)([got["kiln"]], [got["triton"]])
    except Exception as e:
        traceback.print_exc()
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    results.append((name, ok, detail))


def hist(results, path, n, bins):
    """desc.atomic_add counters (zeroed, not poisoned) against each other and
    against torch.bincount of the in-range indices."""
    name = f"desc_hist n={n} bins={bins}"
    try:
        tmod, kmod = triton_module(path)
        idx = torch.randint(-3, bins + 3, (n,), device=DEV, generator=gen(5),
                            dtype=torch.int32)
        ok_idx = idx[(idx >= 0) & (idx < bins)].long()
        want = torch.bincount(ok_idx, minlength=bins).to(torch.int32)
        got = {}
        for who, mod in (("triton", tmod), ("kiln", kmod)):
            cnt = torch.zeros(bins, dtype=torch.int32, device=DEV)
            mod.desc_hist[(cdiv(n, 128),)](idx, cnt, n, bins, B=128)
            torch.cuda.synchronize()
            got[who] = cnt
        ok = torch.equal(got["kiln"], got["triton"]) and torch.equal(got["kiln"], want)
        detail = "equal to Triton and to torch.bincount" if ok else \
            f"kiln {got['kiln'].tolist()[:8]} triton {got['triton'].tolist()[:8]} " \
            f"want {want.tolist()[:8]}"
    except Exception as e:
        traceback.print_exc()
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    results.append((name, ok, detail))
