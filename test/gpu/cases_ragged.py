"""Ragged descriptors (test/gpu/ragged_kernels.py): batches of uneven length read and written
through `triton.tools.ragged_tma` (Kiln's load_ragged / store_ragged against Triton 3.6's), and
3-D descriptors of [1, BM, BK] blocks feeding tl.dot (Liger's fused MLP's form).
Batches are separated by rows no batch owns, and outputs are poisoned first, so a row written
past a batch's end (a store the ragged bounds should have dropped) shows as a difference; empty
batches, batches shorter than a block and batches ending mid-block are all there."""
import os

import torch

from kcompare import DEV, HERE, close, exact, gen, run_case

# (start, size) of each batch: gaps between them, an empty batch, sizes below, at and across
# block boundaries.
BATCHES = [(0, 5), (9, 0), (9, 64), (80, 100), (190, 1), (200, 131)]
ROWS = 340


def cdiv(a, b):
    return (a + b - 1) // b


def batch_tensors():
    starts = torch.tensor([s for s, _ in BATCHES], device=DEV, dtype=torch.int32)
    sizes = torch.tensor([n for _, n in BATCHES], device=DEV, dtype=torch.int32)
    return starts, sizes


def cases(results):
    from triton.tools.ragged_tma import create_ragged_descriptor
    path = os.path.join(HERE, "ragged_kernels.py")
    for T, dt in (("fp16", torch.float16), ("fp32", torch.float32)):
        for BM, BN, N in ((32, 64, 96), (64, 32, 64)):
            def make(dt=dt, BM=BM, BN=BN, N=N):
                x = torch.randn((ROWS, N), device=DEV, generator=gen(N + BM), dtype=dt)
                y = torch.empty((ROWS, N), device=DEV, dtype=dt)
                return [create_ragged_descriptor(x, [BM, BN]),
                        create_ragged_descriptor(y, [BM, BN]), y, *batch_tensors()]
            run_case(results, f"ragged_scale {T} {ROWS}x{N} block {BM}x{BN}", path,
                     "ragged_scale", (len(BATCHES), cdiv(N, BN)), make, [2],
                     dict(BM=BM, BN=BN), exact)
    H, N, BM, BN = 3, 64, 32, 64

    def make3():
        x = torch.randn((H, ROWS, N), device=DEV, generator=gen(3), dtype=torch.float32)
        y = torch.empty((H, ROWS, N), device=DEV, dtype=torch.float32)
        return [create_ragged_descriptor(x, [1, BM, BN], ragged_dim=1),
                create_ragged_descriptor(y, [1, BM, BN], ragged_dim=1), y, *batch_tensors()]
    run_case(results, f"ragged_scale3 fp32 {H}x{ROWS}x{N} ragged_dim=1", path, "ragged_scale3",
             (len(BATCHES), H, cdiv(N, BN)), make3, [2], dict(BM=BM, BN=BN), exact)
    from triton.tools.tensor_descriptor import TensorDescriptor
    for T, dt in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        for BM, BN, BK, K, N in ((64, 64, 64, 256, 128), (128, 64, 32, 96, 64)):
            def make_mm(dt=dt, BM=BM, BN=BN, BK=BK, K=K, N=N):
                g = gen(K + N)
                a = (torch.rand((ROWS, K), device=DEV, generator=g) - 0.5).to(dt)
                b = (torch.rand((K, N), device=DEV, generator=g) - 0.5).to(dt)
                c = torch.empty((ROWS, N), device=DEV, dtype=dt)
                return [create_ragged_descriptor(a, [BM, BK]),
                        TensorDescriptor(b, [K, N], [N, 1], [BK, BN]),
                        create_ragged_descriptor(c, [BM, BN]), c, *batch_tensors(), K]
            grid = (len(BATCHES), cdiv(max(n for _, n in BATCHES), BM), cdiv(N, BN))
            run_case(results, f"ragged_mm {T} K={K} N={N} {BM}x{BN}x{BK}", path, "ragged_mm",
                     grid, make_mm, [3], dict(BM=BM, BN=BN, BK=BK, num_warps=4, num_stages=3),
                     close(1e-2, 1e-2))
    for T, dt in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        for Bt, M, N, K, BM, BN, BK in ((3, 200, 136, 192, 64, 64, 64),
                                        (2, 256, 128, 96, 128, 64, 32)):
            def make_bmm(dt=dt, Bt=Bt, M=M, N=N, K=K, BM=BM, BN=BN, BK=BK):
                g = gen(M + K)
                a = (torch.rand((Bt, M, K), device=DEV, generator=g) - 0.5).to(dt)
                b = (torch.rand((K, N), device=DEV, generator=g) - 0.5).to(dt)
                c = torch.empty((Bt, M, N), device=DEV, dtype=dt)
                return [TensorDescriptor(a, [Bt, M, K], [M * K, K, 1], [1, BM, BK]),
                        TensorDescriptor(b, [K, N], [N, 1], [BK, BN]),
                        TensorDescriptor(c, [Bt, M, N], [M * N, N, 1], [1, BM, BN]), c, K]
            run_case(results, f"batched_mm {T} {Bt}x{M}x{N}x{K} {BM}x{BN}x{BK}", path,
                     "batched_mm", (cdiv(M, BM), cdiv(N, BN), Bt), make_bmm, [3],
                     dict(BM=BM, BN=BN, BK=BK, num_warps=4, num_stages=3), close(1e-2, 1e-2))
