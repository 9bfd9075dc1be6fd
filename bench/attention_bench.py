#!/usr/bin/env python3
"""Time the fused attention forward (examples/matmul/attention_fwd.py, the same file) under
Triton 3.6 and Kiln: fp16, Z = 4, H = 32, HEAD_DIM 64 and 128, N_CTX 1024 and 4096, causal and
not, each (BLOCK_M, BLOCK_N, num_stages, num_warps) config below (the fused-attention tutorial's
search space), then the best config of each compiler per shape. Every (compiler, config) result
is first checked against torch's scaled_dot_product_attention (output poisoned with NaN); a
wrong result is reported and not timed.

    python3 bench/attention_bench.py [--json OUT.json] [--quick] [--rounds N]
    python3 bench/attention_bench.py --profile   (one launch per compiler, for ncu:
                                                  N_CTX 4096, HEAD_DIM 64, not causal, 128x64/3/8)

Times: triton.testing.do_bench (median ms), in --rounds rounds (default 3) that alternate which
compiler goes first, the median round counting; TFLOP/s = 4 Z H N_CTX^2 HEAD_DIM (halved when
causal) / time, as the tutorial counts.
"""
import argparse
import importlib.util
import json
import os
import sys

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kiln  # noqa: E402
from dot_bench_util import check_and_time, time_alternating  # noqa: E402

PATH = os.path.join(ROOT, "examples", "matmul", "attention_fwd.py")
# (BLOCK_M, BLOCK_N, num_stages, num_warps)
CONFIGS = [(128, 64, 3, 8), (128, 128, 3, 8), (128, 64, 4, 4), (64, 64, 3, 4), (128, 32, 3, 4)]
SHAPES = [(1024, 64), (4096, 64), (1024, 128), (4096, 128)]


def load_triton_kernel():
    spec = importlib.util.spec_from_file_location("attention_example", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.attn_fwd


def launcher(kernel, q, k, v, o, scale, causal, cfg):
    bm, bn, stages, warps = cfg
    z, h, n, d = q.shape
    grid = (triton.cdiv(n, bm), z * h)

    def run():
        kernel[grid](q, k, v, scale, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(),
                     h, n, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                     num_warps=warps, num_stages=stages)
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true", help="first two configs, N_CTX 4096 only")
    ap.add_argument("--rounds", type=int, default=3,
                    help="timing rounds per config, alternating which compiler goes first")
    ap.add_argument("--profile", action="store_true", help="one warm launch per compiler")
    ap.add_argument("--profile-head-dim", type=int, default=64,
                    help="HEAD_DIM of the --profile launch (N_CTX 4096, first config)")
    args = ap.parse_args()
    kernels = {"triton": load_triton_kernel(), "kiln": kiln.jit(PATH).attn_fwd}
    if args.profile:
        q, k, v = (torch.randn((4, 32, 4096, args.profile_head_dim), device="cuda",
                               dtype=torch.float16)
                   for _ in range(3))
        for who, kernel in kernels.items():
            run = launcher(kernel, q, k, v, torch.empty_like(q), 0.125, False, CONFIGS[0])
            run()  # compile and warm up
            torch.cuda.synchronize()
            run()
            torch.cuda.synchronize()
            print(who, "launched")
        return
    configs = CONFIGS[:2] if args.quick else CONFIGS
    shapes = [s for s in SHAPES if s[0] == 4096] if args.quick else SHAPES
    rows = []
    z, h = 4, 32
    for n, d in shapes:
        for causal in (False, True):
            torch.manual_seed(0)
            q, k, v = (torch.randn((z, h, n, d), device="cuda", dtype=torch.float16)
                       for _ in range(3))
            scale = d ** -0.5
            ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                                   scale=scale)
            flops = 4.0 * z * h * n * n * d * (0.5 if causal else 1.0)
            for cfg in configs:
                if cfg[0] > n:
                    continue
                timed = []
                for who, kernel in kernels.items():
                    o = torch.empty_like(q)
                    row = dict(n_ctx=n, head_dim=d, causal=causal, compiler=who,
                               config=list(cfg))
                    run = launcher(kernel, q, k, v, o, scale, causal, cfg)
                    check_and_time(row, run, o, ref, flops,
                                   lambda out, r: (out.float() - r.float()).abs().nan_to_num(
                                       float("inf")).max().item() <= 1e-2, timing=False)
                    rows.append(row)
                    if row.get("correct"):
                        timed.append((row, run))
                time_alternating(timed, flops, args.rounds)
                for row in rows[-len(kernels):]:
                    print(json.dumps(row), flush=True)
    print()
    print("n_ctx head_dim causal  triton best  kiln best  kiln/triton  (configs: BM, BN, stages, warps)")
    ratios = []
    for n, d in shapes:
        for causal in (False, True):
            best = {}
            for r in rows:
                if (r["n_ctx"], r["head_dim"], r["causal"]) == (n, d, causal) and "tflops" in r:
                    if r["compiler"] not in best or r["tflops"] > best[r["compiler"]]["tflops"]:
                        best[r["compiler"]] = r
            if "triton" in best and "kiln" in best:
                ratio = best["kiln"]["tflops"] / best["triton"]["tflops"]
                ratios.append(ratio)
                print(f"{n:5d} {d:8d} {str(causal):6s} {best['triton']['tflops']:11.1f} "
                      f"{best['kiln']['tflops']:10.1f} {ratio:12.2f}  "
                      f"{best['triton']['config']} {best['kiln']['config']}")
            else:
                print(f"{n:5d} {d:8d} {str(causal):6s} (no correct config for "
                      f"{', '.join(w for w in ('triton', 'kiln') if w not in best)})")
    if ratios:
        geo = 1.0
        for r in ratios:
            geo *= r
        print(f"geomean kiln/triton = {geo ** (1 / len(ratios)):.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
