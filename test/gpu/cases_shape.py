"""Shape builtins (test/gpu/shape_kernels.py): trans/permute, reshape/view/ravel,
join/split/interleave, cat, broadcast, zeros_like. Outputs are compared bitwise
(shape ops only move bits); tl.cat and tl.view may reorder elements in Triton, so
their outputs are compared as sorted bit patterns."""
import os

import torch

from kcompare import DEV, HERE, run_case, exact, bits, gen


TORCH = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
         "fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
ALL = ("i8", "i16", "i32", "i64", "fp16", "bf16", "fp32")


def rand(t, n, seed):
    g = gen(seed)
    dt = TORCH[t]
    if dt.is_floating_point:
        return (torch.rand(n, device=DEV, generator=g) * 2 - 1).to(dt)
    return torch.randint(-100, 101, (n,), device=DEV, generator=g,
                         dtype=torch.int64).to(dt)


def empty(t, n):
    return torch.empty(n, dtype=TORCH[t], device=DEV)


def sorted_bits(ks, ts):
    """Equal as multisets of bit patterns (Triton may reorder tl.cat / tl.view)."""
    for i, (k, t) in enumerate(zip(ks, ts)):
        if not torch.equal(torch.sort(bits(k).flatten())[0], torch.sort(bits(t).flatten())[0]):
            return False, f"output {i}: different elements"
    return True, "same elements (sorted bitwise)"


def cases(results):
    path = os.path.join(HERE, "shape_kernels.py")
    one = (1,)
    meta = lambda **kw: dict(kw, num_warps=4)  # noqa: E731
    for T in ALL:
        for BM, BN in ((32, 64), (16, 16), (64, 8), (1, 32)):
            n = BM * BN
            run_case(results, f"trans_2d {T} {BM}x{BN}", path, "trans_2d", one,
                     lambda T=T, n=n: [rand(T, n, 1), empty(T, n)], [1], meta(BM=BM, BN=BN), exact)
        run_case(results, f"trans_method_2d {T}", path, "trans_method_2d", one,
                 lambda T=T: [rand(T, 512, 2), empty(T, 512), empty(T, 512)], [1, 2],
                 meta(BM=16, BN=32), exact)
        for dims in ((2, 0, 1), (1, 2, 0), (0, 2, 1), (2, 1, 0), (1, 0, 2), (0, 1, 2)):
            run_case(results, f"permute_3d {T} 4x8x16 {dims}", path, "permute_3d", one,
                     lambda T=T: [rand(T, 512, 3), empty(T, 512)], [1],
                     meta(A=4, B=8, C=16, D0=dims[0], D1=dims[1], D2=dims[2]), exact)
        for BM, BN, RM, RN in ((16, 64, 64, 16), (32, 32, 8, 128), (4, 256, 1024, 1), (64, 16, 2, 512)):
            n = BM * BN
            run_case(results, f"reshape_2d {T} {BM}x{BN}->{RM}x{RN}", path, "reshape_2d", one,
                     lambda T=T, n=n: [rand(T, n, 4), empty(T, n)], [1],
                     meta(BM=BM, BN=BN, RM=RM, RN=RN), exact)
        run_case(results, f"reshape_3d {T}", path, "reshape_3d", one,
                 lambda T=T: [rand(T, 1024, 5), empty(T, 1024)], [1],
                 meta(A=4, B=8, C=32, RM=32, RN=32), exact)
        run_case(results, f"view_2d {T}", path, "view_2d", one,
                 lambda T=T: [rand(T, 512, 6), empty(T, 512)], [1], meta(BM=16, BN=32), sorted_bits)
        run_case(results, f"ravel_3d {T}", path, "ravel_3d", one,
                 lambda T=T: [rand(T, 1024, 7), empty(T, 1024)], [1], meta(A=2, B=16, C=32), exact)
        for BM, BN in ((16, 32), (1, 128), (64, 4)):
            n = BM * BN
            run_case(results, f"join_2d {T} {BM}x{BN}", path, "join_2d", one,
                     lambda T=T, n=n: [rand(T, n, 8), rand(T, n, 9), empty(T, 2 * n)], [2],
                     meta(BM=BM, BN=BN), exact)
            run_case(results, f"split_3d {T} {BM}x{BN}", path, "split_3d", one,
                     lambda T=T, n=n: [rand(T, 2 * n, 10), empty(T, n), empty(T, n)], [1, 2],
                     meta(BM=BM, BN=BN), exact)
            run_case(results, f"interleave_2d {T} {BM}x{BN}", path, "interleave_2d", one,
                     lambda T=T, n=n: [rand(T, n, 11), rand(T, n, 12), empty(T, 2 * n)], [2],
                     meta(BM=BM, BN=BN), exact)
        run_case(results, f"join_bcast {T}", path, "join_bcast", one,
                 lambda T=T: [rand(T, 16, 13), rand(T, 32, 14), empty(T, 1024)], [2],
                 meta(BM=16, BN=32), exact)
        run_case(results, f"split_join_3d {T}", path, "split_join_3d", one,
                 lambda T=T: [rand(T, 256, 15), empty(T, 256)], [1], meta(A=8, B=16), exact)
        for B in (32, 256, 1024):
            run_case(results, f"cat_1d {T} {B}", path, "cat_1d", one,
                     lambda T=T, B=B: [rand(T, B, 16), rand(T, B, 17), empty(T, 2 * B)], [2],
                     meta(BLOCK=B), sorted_bits)
        run_case(results, f"broadcast_2d {T}", path, "broadcast_2d", one,
                 lambda T=T: [rand(T, 16, 18), rand(T, 32, 19), empty(T, 512), empty(T, 512)],
                 [2, 3], meta(BM=16, BN=32), exact)
        run_case(results, f"zeros_like_2d {T}", path, "zeros_like_2d", one,
                 lambda T=T: [rand(T, 512, 20), empty(T, 512)], [1], meta(BM=16, BN=32), exact)
        run_case(results, f"split_scalar {T}", path, "split_scalar", one,
                 lambda T=T: [rand(T, 2, 21), empty(T, 2)], [1], dict(num_warps=4), exact)
        run_case(results, f"trans_ptr_2d {T}", path, "trans_ptr_2d", one,
                 lambda T=T: [rand(T, 1024, 22), empty(T, 1024)], [1], meta(BM=32, BN=32), exact)
    run_case(results, "trans_bool_2d fp32", path, "trans_bool_2d", one,
             lambda: [rand("fp32", 512, 23), empty("i8", 512)], [1], meta(BM=32, BN=16), exact)
    run_case(results, "trans_reduce_2d fp32", path, "trans_reduce_2d", one,
             lambda: [rand("fp32", 2048, 24), empty("fp32", 64)], [1], meta(BM=32, BN=64), exact)
