#!/usr/bin/env python3
"""mamba's Triton ops timed under whichever `triton` is active: run once with
`python3` (Triton 3.6) and once with `python3 -m kiln.run` (Kiln's drop-in),
same shapes, same inputs (seeded). Prints one line per op: median ms of
triton.testing.do_bench (warm-up and autotuning done first), and a checksum
of the outputs so that the two runs can be compared. Device only; needs the
mamba tree (.ext/mamba, test/gpu/run_mamba.sh) on sys.path.

    python3 bench/mamba_bench.py [--out FILE]
    python3 -m kiln.run bench/mamba_bench.py [--out FILE]
"""
import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".ext", "mamba"))

import torch  # noqa: E402
import triton  # noqa: E402
from triton.testing import do_bench  # noqa: E402

from mamba_ssm.ops.triton.layernorm_gated import rmsnorm_fn  # noqa: E402
from mamba_ssm.ops.triton.selective_state_update import selective_state_update  # noqa: E402
from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined  # noqa: E402


CHUNK = 256


def ssd_inputs(dev="cuda", dtype=torch.bfloat16):
    """The SSD forward's inputs, x, dt, A, B, C, D (batch 4, 2048 tokens, 32 heads of 64,
    state 128, one group), made in this order from the caller's seeded generator."""
    b, L, h, p, n, g = 4, 2048, 32, 64, 128, 1
    x = torch.randn(b, L, h, p, device=dev, dtype=dtype)
    dt = torch.nn.functional.softplus(torch.randn(b, L, h, device=dev) - 4).to(torch.float32)
    A = -torch.rand(h, device=dev) * 8
    B = torch.randn(b, L, g, n, device=dev, dtype=dtype)
    C = torch.randn(b, L, g, n, device=dev, dtype=dtype)
    D = torch.randn(h, device=dev)
    return x, dt, A, B, C, D


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--profile", action="store_true",
                    help="also print each op's kernels' CUDA time (torch.profiler, 20 calls)")
    args = ap.parse_args()
    torch.manual_seed(0)
    dev, dt16 = "cuda", torch.bfloat16
    rows = []

    def run(name, fn, out_of):
        t0 = time.perf_counter()
        out = fn()  # first call: compile / autotune
        torch.cuda.synchronize()
        first_s = time.perf_counter() - t0
        ms = do_bench(fn, warmup=25, rep=200)
        o = out_of(out).float()
        rows.append(dict(op=name, ms=ms, first_s=first_s,
                         checksum=float(o.sum()), absmax=float(o.abs().max())))
        print("%-34s %9.4f ms  first call %6.2f s  sum %.6e" % (name, ms, first_s, rows[-1]["checksum"]),
              flush=True)
        if args.profile:
            from torch.profiler import ProfilerActivity, profile
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(20):
                    fn()
                torch.cuda.synchronize()
            for e in sorted(prof.key_averages(), key=lambda e: -e.device_time_total)[:8]:
                print("    %-48s %8.1f us x %d" % (e.key[:48], e.device_time_total / max(1, e.count),
                                                 e.count), flush=True)

    # SSD forward (Mamba-2).
    x, dt, A, B, C, D = ssd_inputs(dev, dt16)
    h, p, g, n = x.shape[2], x.shape[3], B.shape[2], B.shape[3]
    run("ssd chunk_scan_combined fwd", lambda: mamba_chunk_scan_combined(
        x, dt, A, B, C, CHUNK, D=D), lambda o: o)

    # Decode step: selective_state_update on (batch 64, heads 32, 64 x 128).
    bs = 64
    state = torch.randn(bs, h, p, n, device=dev, dtype=dt16)
    xs = torch.randn(bs, h, p, device=dev, dtype=dt16)
    dts = torch.randn(bs, h, p, device=dev, dtype=dt16)
    As = -torch.rand(h, p, n, device=dev)
    Bs = torch.randn(bs, g, n, device=dev, dtype=dt16)
    Cs = torch.randn(bs, g, n, device=dev, dtype=dt16)
    Ds = torch.randn(h, p, device=dev)
    dtb = torch.randn(h, p, device=dev)

    def step():
        s = state.clone()
        return selective_state_update(s, xs, dts, As, Bs, Cs, D=Ds, dt_bias=dtb,
                                      dt_softplus=True)
    run("selective_state_update (decode)", step, lambda o: o)

    # Gated RMSNorm (Mamba-2's output norm): 8192 tokens x 4096, group 4096.
    xn = torch.randn(8192, 4096, device=dev, dtype=dt16)
    zn = torch.randn(8192, 4096, device=dev, dtype=dt16)
    wn = torch.randn(4096, device=dev, dtype=torch.float32)
    run("rmsnorm gated fwd", lambda: rmsnorm_fn(xn, wn, None, z=zn, eps=1e-6,
                                               norm_before_gate=False), lambda o: o)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(triton=triton.__version__, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
