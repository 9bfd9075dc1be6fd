"""Block pointers (test/gpu/blockptr_kernels.py): tiles at unaligned shapes with boundary_check
on each dimension and both padding options, advance in for/while loops, through an if and
helpers, checked stores, column-major and 3-D blocks. Every output is compared bitwise."""
import os

import torch

import traceback

from kcompare import DEV, HERE, bits, exact, gen, poison, run_case, triton_module

TORCH = {"fp32": torch.float32, "fp16": torch.float16, "i32": torch.int32, "i8": torch.int8}


def rand(t, shape, seed):
    g = gen(seed)
    dt = TORCH[t]
    if dt.is_floating_point:
        return (torch.rand(shape, device=DEV, generator=g) * 2 - 1).to(dt)
    return torch.randint(-100, 100, shape, device=DEV, generator=g, dtype=torch.int64).to(dt)


def run_kiln_vs_reference(results, name, path, kernel, grid, args, out, meta, expected):
    """For kernels Triton 3.6 itself cannot compile (its RewriteTensorPointer pass rejects a
    padding_option without boundary_check, and block pointers carried by an scf.while): Kiln's
    output against a PyTorch reference, bitwise."""
    try:
        _, kmod = triton_module(path)
        poison(args[out])
        getattr(kmod, kernel)[grid](*args, **meta)
        torch.cuda.synchronize()
        ok = torch.equal(bits(args[out]), bits(expected))
        detail = "bitwise equal to the PyTorch reference (Triton 3.6 cannot compile it)" if ok \
            else f"{(bits(args[out]) != bits(expected)).sum().item()} elements differ from the reference"
    except Exception as e:
        traceback.print_exc()
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    results.append((name, ok, detail))


def cdiv(a, b):
    return (a + b - 1) // b


def in_bounds(M, N, BM, BN, gn):
    """Compare only the tile elements that lie inside [M, N] (padding_option "" leaves the
    others undefined): Out is [grid0*BM, gn*BN]."""
    def check(ks, ts):
        k, t = ks[0][:M, :N], ts[0][:M, :N]
        return exact([k], [t])
    return check


def cases(results):
    path = os.path.join(HERE, "blockptr_kernels.py")
    # tile_copy: M, N unaligned on the checked dimensions, multiples on the unchecked ones.
    BM, BN = 16, 32
    for T in ("fp32", "fp16", "i32", "i8"):
        for CHECK in (0, 1, 2, 3):
            M = 50 if CHECK in (1, 3) else 64
            N = 77 if CHECK in (2, 3) else 96
            sxm = N + 3  # rows padded: the row stride is not the width
            grid = (cdiv(M, BM), cdiv(N, BN))
            pads = (0, 1, 2) if TORCH[T].is_floating_point else (0, 1)
            for PAD in pads:
                if CHECK == 0 and PAD != 0:
                    x = rand(T, (M, sxm), 1)
                    run_kiln_vs_reference(
                        results, f"tile_copy {T} M={M} N={N} check=0 pad={PAD}", path,
                        "tile_copy", grid,
                        [x, torch.empty((grid[0] * BM, grid[1] * BN), dtype=TORCH[T], device=DEV),
                         M, N, sxm], 1, dict(BM=BM, BN=BN, CHECK=CHECK, PAD=PAD), x[:, :N])
                    continue
                check = exact if (CHECK == 0 or PAD != 0) else in_bounds(M, N, BM, BN, grid[1])
                run_case(results, f"tile_copy {T} M={M} N={N} check={CHECK} pad={PAD}", path,
                         "tile_copy", grid,
                         lambda T=T, M=M, N=N, sxm=sxm, grid=grid:
                         [rand(T, (M, sxm), 1),
                          torch.empty((grid[0] * BM, grid[1] * BN), dtype=TORCH[T], device=DEV),
                          M, N, sxm],
                         [1], dict(BM=BM, BN=BN, CHECK=CHECK, PAD=PAD), check)
    # copy_checked: Y is a view into a larger poisoned buffer; nothing outside [M, N] changes.
    for T in ("fp32", "fp16"):
        for M, N in ((37, 70), (64, 128), (1, 5)):
            sym = N + 11
            run_case(results, f"copy_checked {T} {M}x{N}", path, "copy_checked",
                     (cdiv(M, 32), cdiv(N, 64)),
                     lambda T=T, M=M, N=N, sym=sym:
                     [rand(T, (M, N + 2), 2), torch.empty((M + 3, sym), dtype=TORCH[T], device=DEV),
                      M, N, N + 2, sym],
                     [1], dict(BM=32, BN=64), exact)
    run_case(results, "col_major_copy 45x70", path, "col_major_copy", (cdiv(45, 32), cdiv(70, 64)),
             lambda: [rand("fp32", (70, 45), 3), torch.empty((45, 70), device=DEV), 45, 70],
             [1], dict(BM=32, BN=64), exact)
    for M, K in ((50, 300), (64, 64), (33, 1000)):
        x = rand("i32", (M, K + 5), 4)
        run_kiln_vs_reference(results, f"rowsum_while {M}x{K}", path, "rowsum_while",
                              (cdiv(M, 32),), [x, torch.empty(M, dtype=torch.int32, device=DEV),
                                               M, K, K + 5], 1, dict(BM=32, BK=64),
                              x[:, :K].sum(1, dtype=torch.int32))
    for fn in ("rowsum_for",):
        for M, K in ((50, 300), (64, 64), (33, 1000)):
            run_case(results, f"{fn} {M}x{K}", path, fn, (cdiv(M, 32),),
                     lambda M=M, K=K: [rand("i32", (M, K + 5), 4),
                                       torch.empty(M, dtype=torch.int32, device=DEV), M, K, K + 5],
                     [1], dict(BM=32, BK=64), exact)
    for flip in (0, 1):
        run_case(results, f"if_advance flip={flip}", path, "if_advance", (1,),
                 lambda flip=flip: [rand("fp32", (20, 100), 5),
                                    torch.empty((32, 64), device=DEV), 20, 100, 100, flip],
                 [1], dict(BM=32, BN=64), exact)
    A, B, C = 5, 13, 70
    run_case(results, f"copy_3d {A}x{B}x{C}", path, "copy_3d",
             (cdiv(A, 2), cdiv(B, 8), cdiv(C, 32)),
             lambda: [rand("fp32", (A, B, C), 6), torch.empty((A, B, C), device=DEV), A, B, C],
             [1], dict(BA=2, BB=8, BC=32), exact)
