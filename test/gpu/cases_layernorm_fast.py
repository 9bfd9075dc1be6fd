"""The fused LayerNorm / RMSNorm kernels (examples/layernorm/layer_norm_fast.py), each variant
launched with the same arguments under Triton 3.6 and Kiln. Reductions may associate
differently, so floating outputs are compared with a small relative bound; dropout (tl.rand) is
the same Philox stream in both, so its zeros must line up.

Argument lists follow the kernels' signatures (see the file's docstrings); pointers a switch
turns off get X (never dereferenced)."""
import os

import torch

from kcompare import DEV, ROOT, run_case, close, gen

PATH = os.path.join(ROOT, "examples", "layernorm", "layer_norm_fast.py")
DT = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
FLAGS_FWD = ("IS_RMS", "HAS_BIAS", "HAS_RES", "STORE_RES_OUT", "HAS_DROPOUT", "HAS_ROWSCALE",
             "HAS_W1", "HAS_B1")
FLAGS_BWD = ("IS_RMS", "HAS_BIAS", "HAS_DRES", "STORE_DRES_IN", "HAS_DROPOUT", "HAS_ROWSCALE",
             "HAS_W1", "HAS_B1")


def check_for(t):
    return close(1e-5, 1e-5) if t == "fp32" else close(2e-2, 2e-2)


def tensors(M, N, t, seed):
    g = gen(seed)
    dt = DT[t]
    mat = lambda s=1.0, o=0.0: (o + s * torch.randn((M, N), device=DEV, generator=g)).to(dt)  # noqa: E731
    vec = lambda: torch.rand((N,), device=DEV, generator=g).to(dt)  # noqa: E731
    return dict(x=mat(0.5, -2.3), res=mat(), dy=mat(0.1), dy1=mat(0.1), dres=mat(0.1),
                w=vec(), b=vec(), w1=vec(), b1=vec(),
                rs=0.5 + torch.rand((M,), device=DEV, generator=g))


def empty(shape, dt):
    return torch.empty(shape, dtype=dt, device=DEV)


def fwd_case(results, name, kernel, M, N, t, flags, block, rows, warps, grid):
    f = dict(zip(FLAGS_FWD, flags))

    def make():
        d = tensors(M, N, t, M * 7 + N)
        x = d["x"]
        return [x, empty((M, N), DT[t]), d["w"], d["b"], d["res"], empty((M, N), DT[t]),
                d["rs"], d["w1"], d["b1"], empty((M, N), DT[t]),
                empty((M,), torch.float32), empty((M,), torch.float32),
                N, N, N, N, M, N, 1e-5, 0.25, 1234]
    outs = [1, 10, 11]  # y, mean, rstd
    if f["STORE_RES_OUT"]:
        outs.append(5)
    if f["HAS_W1"]:
        outs.append(9)
    if f["IS_RMS"]:
        outs.remove(10)  # mean is not written
    meta = dict(f, BLOCK_N=block, ROWS=rows, num_warps=warps)
    run_case(results, name, PATH, kernel, grid, make, outs, meta, check_for(t))


def bwd_args(M, N, t, P, rpp, d, with_stats=None):
    dt = DT[t]
    x = d["x"]
    mean = x.float().mean(1)
    rstd = torch.rsqrt(((x.float() - mean[:, None]) ** 2).mean(1) + 1e-5)
    head = [x, d["w"], d["b"], d["dy"], empty((M, N), dt), d["w1"], d["dy1"], d["dres"],
            empty((M, N), dt), d["rs"], mean, rstd]
    if with_stats is not None:
        head += with_stats
    parts = [empty((P, N), torch.float32) for _ in range(4)]
    tail = [N, N, N, N, N, M, N, rpp, 0.25, 1234]
    return head + parts + tail, len(head)


def bwd_case(results, name, kernel, M, N, t, flags, block, rows, warps, P, rpp, grid,
             stats=False):
    f = dict(zip(FLAGS_BWD, flags))

    def make():
        d = tensors(M, N, t, M * 11 + N)
        extra = None
        if stats:
            g = gen(5)
            extra = [0.01 * torch.randn((M,), device=DEV, generator=g),
                     0.01 * torch.randn((M,), device=DEV, generator=g)]
        return bwd_args(M, N, t, P, rpp, d, extra)[0]
    nhead = 14 if stats else 12
    outs = [4, nhead]  # dx, dw partials
    if f["HAS_BIAS"]:
        outs.append(nhead + 1)
    if f["STORE_DRES_IN"]:
        outs.append(8)
    if f["HAS_W1"]:
        outs.append(nhead + 2)
    meta = dict(f, BLOCK_N=block, ROWS=rows, num_warps=warps)
    run_case(results, name, PATH, kernel, grid, make, outs, meta, check_for(t))


def cases(results):
    plain = (0, 1, 0, 0, 0, 0, 0, 0)
    fwd_all = (0, 1, 1, 1, 1, 1, 1, 1)
    fwd_rms = (1, 0, 1, 1, 0, 0, 0, 0)
    bwd_all = (0, 1, 1, 1, 1, 1, 1, 1)
    bwd_rms = (1, 0, 0, 0, 0, 0, 0, 0)
    fwd_case(results, "_norm_fwd fp16 64x512 8 rows", "_norm_fwd", 64, 512, "fp16", plain,
             512, 8, 8, (8,))
    fwd_case(results, "_norm_fwd bf16 33x3000 every option", "_norm_fwd", 33, 3000, "bf16",
             fwd_all, 4096, 1, 8, (33,))
    fwd_case(results, "_norm_fwd fp32 7x777 rms+residual", "_norm_fwd", 7, 777, "fp32", fwd_rms,
             1024, 4, 8, (2,))
    fwd_case(results, "_norm_fwd_chunked fp32 3x100000", "_norm_fwd_chunked", 3, 100000, "fp32",
             plain, 16384, 1, 32, (3,))
    fwd_case(results, "_norm_fwd_chunked fp16 4x40000 every option", "_norm_fwd_chunked", 4,
             40000, "fp16", fwd_all, 4096, 1, 8, (4,))
    bwd_case(results, "_norm_bwd fp16 300x1024", "_norm_bwd", 300, 1024, "fp16", plain,
             1024, 4, 16, 19, 16, (19,))
    bwd_case(results, "_norm_bwd bf16 40x2000 every option", "_norm_bwd", 40, 2000, "bf16",
             bwd_all, 2048, 2, 8, 5, 8, (5,))
    bwd_case(results, "_norm_bwd fp32 9x8192 rms", "_norm_bwd", 9, 8192, "fp32", bwd_rms,
             8192, 1, 32, 3, 3, (3,))
    bwd_case(results, "_norm_bwd_cols fp16 17x16384", "_norm_bwd_cols", 17, 16384, "fp16",
             plain, 8192, 1, 32, 6, 3, (2, 6))
    bwd_case(results, "_norm_bwd_cols bf16 5x16385 every option", "_norm_bwd_cols", 5, 16385,
             "bf16", bwd_all, 4096, 1, 16, 5, 1, (5, 5))
    bwd_case(results, "_norm_bwd_chunked fp32 12x65537", "_norm_bwd_chunked", 12, 65537, "fp32",
             plain, 1024, 4, 16, 3, 4, (3, 65), stats=True)

    M, N = 6, 70000
    run_case(results, "_norm_bwd_row_stats fp16 6x70000", PATH, "_norm_bwd_row_stats", (M,),
             lambda: _row_stats_args(M, N), [7, 8], dict(BLOCK_N=4096, IS_RMS=False,
                                                         HAS_W1=False, num_warps=8),
             close(1e-4, 1e-6))
    P, N = 37, 3000
    stride = (P * N + 63) // 64 * 64
    # Three gradients in one launch (grid y = 3): regions of `stride`
    # elements; the fourth output pointer is past the grid (never written).
    run_case(results, "_norm_bwd_reduce 3 x 37x3000 -> bf16", PATH, "_norm_bwd_reduce",
             ((N + 63) // 64, 3),
             lambda: [torch.randn((3 * stride,), device=DEV, generator=gen(9)),
                      empty((N,), torch.bfloat16), empty((N,), torch.bfloat16),
                      empty((N,), torch.bfloat16), empty((1,), torch.bfloat16),
                      P, N, stride],
             [1, 2, 3, 4], dict(BLOCK_P=16, BLOCK_N=64, num_warps=4), close(1e-2, 1e-2))


def _row_stats_args(M, N):
    d = tensors(M, N, "fp16", 3)
    x = d["x"]
    mean = x.float().mean(1)
    rstd = torch.rsqrt(((x.float() - mean[:, None]) ** 2).mean(1) + 1e-5)
    return [x, d["w"], d["dy"], d["w1"], d["dy1"], mean, rstd,
            empty((M,), torch.float32), empty((M,), torch.float32), N, N, M, N]
