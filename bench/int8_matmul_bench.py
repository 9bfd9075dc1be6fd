#!/usr/bin/env python3
"""Time an int8 GEMM (int32 accumulator, `acc += tl.dot(a, b)`, as quantized
GEMMs write it: test/gpu/dot_kernels.py `dot_kloop_int8`, the same file under
both) under Triton 3.6 and Kiln, per config. B is passed K-contiguous ("nt",
the transpose of an N x K weight: s8 wgmma on sm_90 under both) or
N-contiguous ("nn"). Every result is checked exactly against the float64
product first, the output poisoned before the launch; a wrong result is
reported and not timed.

    python3 bench/int8_matmul_bench.py [--sizes 4096,8192] [--layouts nt,nn]
                                       [--json OUT.json]

Times: triton.testing.do_bench (median ms, L2 flushed); TOP/s = 2 M N K / time.
"""
import argparse
import importlib.util
import json
import os
import sys

import torch
import triton
from triton.testing import do_bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kiln  # noqa: E402

PATH = os.path.join(ROOT, "test", "gpu", "dot_kernels.py")
# (BM, BN, BK, num_stages, num_warps): the fp8 tile shapes of the matmul
# tutorial (8-bit operands: K blocks of 128 bytes) and smaller ones.
CONFIGS = [
    (128, 256, 128, 3, 8),
    (256, 128, 128, 3, 8),
    (128, 128, 128, 4, 4),
    (128, 128, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (128, 64, 64, 4, 4),
]


def load_triton_kernel():
    spec = importlib.util.spec_from_file_location("dot_kernels", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dot_kloop_int8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--layouts", default="nt,nn")
    ap.add_argument("--json")
    args = ap.parse_args()
    kernels = {"triton": load_triton_kernel(), "kiln": kiln.jit(PATH).dot_kloop_int8}
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        g = torch.Generator(device="cuda").manual_seed(0)
        a = torch.randint(-8, 8, (size, size), device="cuda", dtype=torch.int8, generator=g)
        w = torch.randint(-8, 8, (size, size), device="cuda", dtype=torch.int8, generator=g)
        # |sum| <= 64 * size: exact in float64 (and in float32 up to 2^24).
        ref = (a.double() @ w.double().T).to(torch.int32)
        for layout in args.layouts.split(","):
            b = w.T if layout == "nt" else w.T.contiguous()
            for cfg in CONFIGS:
                bm, bn, bk, stages, warps = cfg
                for who, kernel in kernels.items():
                    c = torch.empty((size, size), device="cuda", dtype=torch.int32)
                    grid = (triton.cdiv(size, bm), triton.cdiv(size, bn))

                    def run():
                        kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                                     b.stride(0), b.stride(1), BM=bm, BN=bn, BK=bk,
                                     num_warps=warps, num_stages=stages)
                    row = dict(size=size, layout=layout, compiler=who, config=list(cfg))
                    try:
                        c.fill_(-12345)
                        run()
                        torch.cuda.synchronize()
                        row["correct"] = bool(torch.equal(c, ref))
                        if row["correct"]:
                            ms = do_bench(run, warmup=25, rep=100)
                            row["ms"] = ms
                            row["tops"] = 2.0 * size ** 3 / ms * 1e-9
                        else:
                            row["mismatches"] = int((c != ref).sum().item())
                    except Exception as e:
                        row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print()
    print("size  layout  config (BM, BN, BK, stages, warps)   triton TOP/s  kiln TOP/s  kiln/triton")
    for r in rows:
        if r["compiler"] != "kiln":
            continue
        t = next(x for x in rows if x["compiler"] == "triton" and x["size"] == r["size"] and
                 x["layout"] == r["layout"] and x["config"] == r["config"])
        ratio = f"{t['ms'] / r['ms']:.2f}" if "ms" in r and "ms" in t else "-"
        print(f"{r['size']:5d} {r['layout']:>6s}  {str(r['config']):34s} "
              f"{t.get('tops', float('nan')):12.1f} {r.get('tops', float('nan')):11.1f}  {ratio}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
