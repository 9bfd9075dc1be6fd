"""Descriptor blocks feeding tl.dot in pipelined loops (test/gpu/tma_kernels.py): Kiln copies them
with TMA on sm_90 (cp.async.bulk.tensor into swizzled slots, mbarriers), as Triton 3.6 does. Odd
shapes (blocks past every edge), negative block offsets, NaN padding, each slot swizzle (rows of
32, 64 and 128 bytes, and 256 as two boxes), mma.sync loops (2 warps) at 3 and 5 stages, a
transposed operand (attention's K), persistent loops (tutorial 09's, the next tile's copies started early); descriptors
made in the kernel (tensor maps built in global scratch), also per group in a loop as tutorial 08
makes them. Descriptor stores by TMA (a slot per store, three in flight per loop iteration,
blocks past the bottom and right edges, each swizzle, fp8 to fp32). tf32 / fp8 / int8 B stored
N x K and read `.T` (tf32 and fp8 by TMA, read K-major through the transpose; int8 by cp.async).
Liger's dGU epilogue (tiles loaded once, combined with the product: one slot each, by TMA or
cp.async, read in the accumulator's layout).
Outputs against Triton's, outputs poisoned first."""
import os

import torch

import kcompare
from kcompare import DEV, HERE, close, gen, run_case

TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
         "fp8e4nv": torch.float8_e4m3fn, "int8": torch.int8}


def values(shape, T, g):
    """Operands in [-0.5, 0.5), or small integers for int8 (exact int32 sums)."""
    if T == "int8":
        return torch.randint(-8, 8, shape, device=DEV, generator=g, dtype=torch.int8)
    return (torch.rand(shape, device=DEV, generator=g) - 0.5).to(TORCH[T])


def cdiv(a, b):
    return (a + b - 1) // b


def cases(results):
    from triton.tools.tensor_descriptor import TensorDescriptor
    path = os.path.join(HERE, "tma_kernels.py")

    def operands(T, M, N, K, BM, BN, BK, bt=False, nan=False):
        g = gen(M * 7 + N * 3 + K)
        unit = 16 if T in ("fp8e4nv", "int8") else 8  # row strides of 16 bytes' multiples
        sa, sb = cdiv(K, unit) * unit, cdiv(N, unit) * unit
        a = values((M, sa), T, g)
        if bt:
            b = values((N, sa), T, g)
            bd = TensorDescriptor(b, [N, K], [sa, 1], [BN, BK])
        else:
            b = values((K, sb), T, g)
            bd = TensorDescriptor(b, [K, N], [sb, 1], [BK, BN])
        ad = TensorDescriptor(a, [M, K], [sa, 1], [BM, BK], padding="nan" if nan else "zero")
        c = torch.empty((M, N), device=DEV, dtype=torch.float32)
        return [ad, bd, c, M, N, K]

    tol = {"fp16": close(2e-3, 2e-3), "bf16": close(1e-2, 1e-2), "fp32": close(2e-2, 2e-2),
           "fp8e4nv": close(2e-2, 2e-2), "int8": close(1e-6, 1e-6)}
    configs = [  # BM, BN, BK, warps, stages
        (64, 64, 16, 4, 3), (64, 128, 32, 4, 3), (128, 64, 64, 4, 3), (64, 64, 128, 4, 2),
        (64, 64, 64, 2, 3), (64, 64, 32, 2, 5), (128, 128, 64, 8, 3)]
    for T in ("fp16", "bf16"):
        for BM, BN, BK, nw, st in configs:
            for M, N, K in ((200, 136, 300), (256, 256, 256)):
                run_case(results, f"tma_mm {T} {M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st}", path,
                         "tma_mm", (cdiv(M, BM), cdiv(N, BN)),
                         lambda T=T, M=M, N=N, K=K, BM=BM, BN=BN, BK=BK:
                         operands(T, M, N, K, BM, BN, BK),
                         [2], dict(BM=BM, BN=BN, BK=BK, SHIFT=0, num_warps=nw, num_stages=st),
                         tol[T])
    M, N, K = 200, 136, 300
    run_case(results, "tma_mm fp32 (tf32) 64x64x32", path, "tma_mm", (cdiv(M, 64), cdiv(N, 64)),
             lambda: operands("fp32", M, N, K, 64, 64, 32), [2],
             dict(BM=64, BN=64, BK=32, SHIFT=0, num_warps=4, num_stages=3), tol["fp32"])
    # Blocks starting above row 0 (negative offsets) and NaN padding (every
    # output row meets A's padded K columns: NaN everywhere, as under Triton).
    run_case(results, "tma_mm fp16 shifted by -8 rows", path, "tma_mm",
             (cdiv(M, 64) + 1, cdiv(N, 64)),
             lambda: operands("fp16", M, N, K, 64, 64, 64), [2],
             dict(BM=64, BN=64, BK=64, SHIFT=8, num_warps=4, num_stages=3), tol["fp16"])
    run_case(results, "tma_mm fp16 NaN padding", path, "tma_mm", (cdiv(M, 64), cdiv(N, 64)),
             lambda: operands("fp16", M, N, K, 64, 64, 64, nan=True), [2],
             dict(BM=64, BN=64, BK=64, SHIFT=0, num_warps=4, num_stages=3), tol["fp16"])
    # Liger's dGU epilogue: tiles of G and U, each loaded once and combined with the
    # product, copied by TMA (descriptors) or cp.async (pointers) into one slot each and
    # read in the accumulator's layout; odd shapes cut every edge.
    def swiglu_operands(T, M, N, K, BM, BN, BK):
        g = gen(M * 13 + N * 5 + K)
        ops = operands(T, M, N, K, BM, BN, BK)
        sn = cdiv(N, 8) * 8
        gu = [values((M, sn), T, g) * 8 for _ in range(2)]
        out = [torch.empty((M, sn), device=DEV, dtype=TORCH[T]) for _ in range(2)]
        descs = [TensorDescriptor(t, [M, N], [sn, 1], [BM, BN]) for t in gu]
        return ops[:2] + descs + gu + out + [M, N, K]

    for T in ("bf16", "fp16"):
        for BM, BN, BK, nw, st in ((128, 128, 64, 8, 3), (64, 128, 64, 4, 3), (64, 64, 32, 4, 3),
                                   (64, 128, 64, 8, 3), (64, 64, 64, 2, 3)):
            for desc in (True, False):
                for M, N, K in ((200, 136, 300), (256, 256, 256)):
                    if not desc and N % 8:
                        continue
                    run_case(results, f"tma_mm_swiglu_bwd {T} {'desc' if desc else 'ptr'} "
                             f"{M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st}", path, "tma_mm_swiglu_bwd",
                             (cdiv(M, BM), cdiv(N, BN)),
                             lambda T=T, M=M, N=N, K=K, BM=BM, BN=BN, BK=BK:
                             swiglu_operands(T, M, N, K, BM, BN, BK),
                             [6, 7], dict(BM=BM, BN=BN, BK=BK, DESC=desc, num_warps=nw,
                                          num_stages=st), tol[T])
    for BM, BN, BK, nw, st in ((64, 64, 64, 4, 3), (128, 64, 128, 4, 2), (64, 64, 64, 2, 3)):
        run_case(results, f"tma_mm_bt fp16 {BM}x{BN}x{BK} w{nw} s{st}", path, "tma_mm_bt",
                 (cdiv(M, BM), cdiv(N, BN)),
                 lambda BM=BM, BN=BN, BK=BK: operands("fp16", M, N, K, BM, BN, BK, bt=True),
                 [2], dict(BM=BM, BN=BN, BK=BK, num_warps=nw, num_stages=st), tol["fp16"])
    # tf32 and fp8 B stored N x K and read `.T`: the slot holds the block as TMA copies it,
    # N rows of K, the only B their wgmma reads (2 warps: mma.sync, the transpose in registers).
    for T, BM, BN, BK, nw, st in (("fp8e4nv", 64, 64, 64, 4, 3), ("fp8e4nv", 128, 128, 128, 8, 3),
                                  ("fp8e4nv", 128, 256, 64, 8, 4), ("fp8e4nv", 64, 64, 64, 2, 3),
                                  ("fp32", 64, 64, 32, 4, 3), ("fp32", 128, 128, 32, 8, 3),
                                  ("int8", 64, 64, 64, 4, 3), ("int8", 128, 128, 128, 8, 3)):
        for M, N, K in ((200, 136, 300), (256, 256, 512)):
            run_case(results, f"tma_mm_bt {T} {M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st}", path,
                     "tma_mm_bt", (cdiv(M, BM), cdiv(N, BN)),
                     lambda T=T, M=M, N=N, K=K, BM=BM, BN=BN, BK=BK:
                     operands(T, M, N, K, BM, BN, BK, bt=True),
                     [2], dict(BM=BM, BN=BN, BK=BK, num_warps=nw, num_stages=st), tol[T])
    for programs in (1, 5):
        run_case(results, f"tma_persistent fp16 on {programs} programs", path, "tma_persistent",
                 (programs,), lambda: operands("fp16", 300, 200, 200, 64, 64, 64), [2],
                 dict(BM=64, BN=64, BK=64, num_warps=4, num_stages=3), tol["fp16"])

    # Descriptors made in the kernel: Kiln builds their tensor maps in global
    # scratch (tile.tensormap_create), Triton in the scratch of its allocator.
    import triton
    triton.set_allocator(lambda size, alignment, stream:
                         torch.empty(size, device=DEV, dtype=torch.int8))

    def dev_operands(T, M, N, K, nan=False):
        g = gen(M * 5 + N * 11 + K)
        unit = 16 if T in ("fp8e4nv", "int8") else 8
        sa = cdiv(K, unit) * unit
        a = values((M, sa), T, g)
        bt = values((N, sa), T, g)
        c = torch.empty((M, N), device=DEV, dtype=torch.float32)
        return [a, bt, c, M, N, K, sa, sa]

    for BM, BN, BK, nw, st in ((64, 64, 64, 4, 3), (128, 128, 64, 8, 3), (64, 128, 32, 4, 4)):
        for M, N, K in ((200, 136, 300), (256, 256, 256)):
            run_case(results, f"tma_dev_mm fp16 {M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st}", path,
                     "tma_dev_mm", (cdiv(M, BM), cdiv(N, BN)),
                     lambda M=M, N=N, K=K: dev_operands("fp16", M, N, K), [2],
                     dict(BM=BM, BN=BN, BK=BK, NAN=False, num_warps=nw, num_stages=st),
                     tol["fp16"])
    for T, BM, BN, BK, nw in (("fp8e4nv", 128, 128, 128, 8), ("fp8e4nv", 64, 128, 64, 4),
                              ("fp32", 64, 64, 32, 4), ("int8", 128, 128, 128, 8)):
        for M, N, K in ((200, 136, 300), (256, 256, 256)):
            run_case(results, f"tma_dev_mm {T} {M}x{N}x{K} {BM}x{BN}x{BK} w{nw}", path,
                     "tma_dev_mm", (cdiv(M, BM), cdiv(N, BN)),
                     lambda T=T, M=M, N=N, K=K: dev_operands(T, M, N, K), [2],
                     dict(BM=BM, BN=BN, BK=BK, NAN=False, num_warps=nw, num_stages=3), tol[T])
    run_case(results, "tma_dev_mm bf16 NaN padding", path, "tma_dev_mm", (cdiv(200, 64), cdiv(136, 64)),
             lambda: dev_operands("bf16", 200, 136, 300), [2],
             dict(BM=64, BN=64, BK=64, NAN=True, num_warps=4, num_stages=3), tol["bf16"])

    def grouped(shapes):
        keep, ptrs, sizes = [], [], []
        for i, (M, N, K) in enumerate(shapes):
            g = gen(97 * i + M)
            a = (torch.rand((M, K), device=DEV, generator=g) - 0.5).half()
            bt = (torch.rand((N, K), device=DEV, generator=g) - 0.5).half()
            c = torch.empty((M, N), device=DEV, dtype=torch.float32)
            keep += [a, bt, c]
            ptrs += [a.data_ptr(), bt.data_ptr(), c.data_ptr()]
            sizes += [M, N, K]
        p = torch.tensor(ptrs, device=DEV, dtype=torch.int64)
        s = torch.tensor(sizes, device=DEV, dtype=torch.int32)
        return keep, p, s

    shapes = ((256, 256, 128), (200, 136, 296), (64, 512, 64))

    def grouped_case(BM, BN, BK, nw):
        tiles = sum(cdiv(M, BM) * cdiv(N, BN) for M, N, _ in shapes)
        tmod, kmod = kcompare.triton_module(path)
        got = {}
        try:
            for who, k in (("triton", tmod.tma_dev_grouped), ("kiln", kmod.tma_dev_grouped)):
                keep, p, s = grouped(shapes)
                for t in keep[2::3]:
                    kcompare.poison(t)
                k[(tiles,)](p, s, len(shapes), BM=BM, BN=BN, BK=BK, num_warps=nw, num_stages=3)
                torch.cuda.synchronize()
                got[who] = [t.clone() for t in keep[2::3]]
            ok, detail = tol["fp16"](got["kiln"], got["triton"])
        except Exception as e:
            ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
        results.append((f"tma_dev_grouped {BM}x{BN}x{BK} w{nw}", ok, detail))

    grouped_case(64, 64, 64, 4)
    grouped_case(128, 128, 64, 8)

    # Tutorial 09's persistent matmuls: each next tile's first copies start before the
    # current tile's epilogue. Shapes: K of one block (fewer iterations than the prologue
    # copies), K not a multiple of BK, tile counts not a multiple of the programs; the
    # 128x128x128 config has no room for the epilogue beside its slots (not started early).
    def persistent_operands(M, N, K, BM, BN, BK, tma, T="fp16"):
        g = gen(M * 13 + N * 5 + K)
        a = (torch.rand((M, K), device=DEV, generator=g) - 0.5).to(TORCH[T])
        bt = (torch.rand((N, K), device=DEV, generator=g) - 0.5).to(TORCH[T])
        c = torch.empty((M, N), device=DEV, dtype=torch.float16)
        if tma:
            return [TensorDescriptor(a, [M, K], [K, 1], [BM, BK]),
                    TensorDescriptor(bt, [N, K], [K, 1], [BN, BK]),
                    TensorDescriptor(c, [M, N], [N, 1], [BM, BN]), c, M, N, K]
        return [a, bt, c, M, N, K, K, 1, 1, K, N, 1]

    for kernel, out in (("persistent_tma", 3), ("persistent_ptr", 2)):
        for BM, BN, BK, nw, st in ((128, 256, 64, 8, 3), (128, 128, 64, 8, 4), (64, 64, 64, 4, 3),
                                   (128, 128, 128, 8, 3)):
            for M, N, K, programs in ((1000, 696, 512, 132), (300, 520, 200, 7),
                                      (256, 264, 64, 3), (129, 136, 136, 1)):
                run_case(results, f"{kernel} fp16 {M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st} "
                         f"on {programs}", path, kernel, (programs,),
                         lambda M=M, N=N, K=K, BM=BM, BN=BN, BK=BK, t=kernel == "persistent_tma":
                         persistent_operands(M, N, K, BM, BN, BK, t), [out],
                         dict(BM=BM, BN=BN, BK=BK, GROUP=8, PROGRAMS=programs, num_warps=nw,
                              num_stages=st), tol["fp16"])

    # Descriptor stores (TMA stores on sm_90: TmaStores.cpp). 16 warps, so that the slots cost no
    # program per SM; each dtype with rows of 32 to 512 bytes (one box to four), blocks past the
    # bottom and right edges, 1 to 5 programs. N = 136 (fp16): columns not known divisible by 16,
    # so register stores (a TMA store writes whole 16-byte chunks). No block above row 0: a TMA
    # store at a negative row faults (illegal instruction) under Triton as under Kiln (session 37).
    def store_operands(T, M, N, BM, BN):
        g = gen(M * 3 + N + BM)
        x = ((torch.rand((M, N), device=DEV, generator=g) - 0.5) * 8).to(TORCH[T])
        y = torch.empty((M, N), device=DEV, dtype=TORCH[T])
        z = torch.empty((M, N), device=DEV, dtype=TORCH[T])
        return [x, TensorDescriptor(y, [M, N], [N, 1], [BM, BN]), y, z, M, N]

    for T, BM, BN in (("fp16", 64, 128), ("bf16", 128, 64), ("fp32", 32, 128), ("fp32", 64, 32),
                      ("fp8e4nv", 64, 128), ("fp8e4nv", 128, 64), ("int8", 64, 128)):
        shapes = [(200, 144, 5), (256, 256, 3), (64, 96, 1)] + ([(72, 136, 2)] if T == "fp16" else [])
        for M, N, programs in shapes:
            run_case(results, f"tma_store_tiles {T} {M}x{N} {BM}x{BN} on {programs}",
                     path, "tma_store_tiles", (programs,),
                     lambda T=T, M=M, N=N, BM=BM, BN=BN: store_operands(T, M, N, BM, BN), [2, 3],
                     dict(SHIFT=0, BM=BM, BN=BN, SCALE=T != "fp8e4nv", num_warps=16),
                     kcompare.exact)
    # fp8 (tutorial 09's fp8 runs): A and B^T both by TMA, read K-major by the wgmma.
    for BM, BN, BK, nw, st in ((128, 256, 128, 8, 3), (128, 128, 128, 8, 4)):
        for M, N, K, programs in ((1000, 696, 512, 132), (300, 520, 208, 7)):
            run_case(results, f"persistent_tma fp8e4nv {M}x{N}x{K} {BM}x{BN}x{BK} w{nw} s{st} "
                     f"on {programs}", path, "persistent_tma", (programs,),
                     lambda M=M, N=N, K=K, BM=BM, BN=BN, BK=BK:
                     persistent_operands(M, N, K, BM, BN, BK, True, "fp8e4nv"), [3],
                     dict(BM=BM, BN=BN, BK=BK, GROUP=8, PROGRAMS=programs, num_warps=nw,
                          num_stages=st), close(2e-2, 2e-2))
