#!/usr/bin/env python3
"""mamba's SSD forward kernels timed config by config under whichever `triton` is active: run
once with `python3` (Triton 3.6) and once with `python3 -m kiln.run` (Kiln's drop-in), same
inputs (seeded). For each of the autotuned `_chunk_state_fwd_kernel`, `_chunk_scan_fwd_kernel`
and `_bmm_chunk_fwd_kernel`, every config of its own autotune list is forced in turn (the
autotuner's `configs` narrowed to it, its cache cleared) and its host function timed with
triton.testing.do_bench (CUDA events, L2 flushed, median: the op as its callers see it, host
path included) and under torch.profiler (the kernel's own CUDA time, mean of 20 back-to-back
calls, warm L2). Prints one line per (kernel, config): both times and a checksum of the output,
so that the two runs can be compared line by line; --out writes them as JSON. A config a
compiler rejects (Triton: out of shared memory) is printed as an error. Device only; needs the
mamba tree (.ext/mamba, test/gpu/run_mamba.sh).

    python3 bench/mamba_kernels_bench.py [--out FILE] [--only chunk_state,chunk_scan] [--config N]
    python3 -m kiln.run bench/mamba_kernels_bench.py [--out FILE]
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, ".ext", "mamba"))

import torch  # noqa: E402
import triton  # noqa: E402
from triton.testing import do_bench  # noqa: E402

from mamba_ssm.ops.triton import ssd_bmm, ssd_chunk_scan, ssd_chunk_state  # noqa: E402

from mamba_bench import CHUNK, ssd_inputs  # noqa: E402


KERNELS = {"chunk_state": "_chunk_state_fwd_kernel", "chunk_scan": "_chunk_scan_fwd_kernel",
           "bmm_chunk": "_bmm_chunk_fwd_kernel"}


def config_text(cfg):
    kw = ",".join(f"{k}={v}" for k, v in sorted(cfg.kwargs.items()))
    return f"{kw} w{cfg.num_warps} s{cfg.num_stages}"


def kernel_time(fn, kernel_name, calls=20):
    """Mean CUDA time (us) of the kernels named `kernel_name` over `calls` calls of fn."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    total, count = 0.0, 0
    for e in prof.key_averages():
        if kernel_name in e.key:
            total += e.device_time_total
            count += e.count
    return total / count if count else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only", default="chunk_state,chunk_scan,bmm_chunk")
    ap.add_argument("--config", type=int, help="only this config (index in the autotune list)")
    args = ap.parse_args()
    torch.manual_seed(0)
    dev, dt16 = "cuda", torch.bfloat16
    x, dt, A, B, C, D = ssd_inputs(dev, dt16)  # bench/mamba_bench.py's shapes
    chunk = CHUNK
    # The inputs of the timed kernels, made with one config each (no autotuning here).
    tuners = (ssd_chunk_state._chunk_state_fwd_kernel, ssd_bmm._bmm_chunk_fwd_kernel)
    saved = [t.configs for t in tuners]
    for t in tuners:
        t.configs, t.cache = [t.configs[-1]], {}
    dA_cumsum, dt_c = ssd_chunk_state._chunk_cumsum_fwd(dt, A, chunk)
    states = ssd_chunk_state._chunk_state_fwd(B, x, dt_c, dA_cumsum, states_in_fp32=True)
    CB = ssd_bmm._bmm_chunk_fwd(C, B, chunk, output_dtype=torch.float32)
    prev = states.to(C.dtype)
    for t, configs in zip(tuners, saved):
        t.configs, t.cache = configs, {}
    ops = {
        "chunk_state": (ssd_chunk_state._chunk_state_fwd_kernel,
                        lambda: ssd_chunk_state._chunk_state_fwd(B, x, dt_c, dA_cumsum,
                                                                 states_in_fp32=True)),
        "chunk_scan": (ssd_chunk_scan._chunk_scan_fwd_kernel,
                       lambda: ssd_chunk_scan._chunk_scan_fwd(CB, x, dt_c, dA_cumsum, C, prev,
                                                              D=D)[0]),
        "bmm_chunk": (ssd_bmm._bmm_chunk_fwd_kernel,
                      lambda: ssd_bmm._bmm_chunk_fwd(C, B, chunk, output_dtype=torch.float32)),
    }
    rows = []
    for name in args.only.split(","):
        tuner, fn = ops[name]
        configs = list(tuner.configs)
        for i, cfg in enumerate(configs):
            if args.config is not None and i != args.config:
                continue
            tuner.configs = [cfg]
            tuner.cache = {}
            try:
                out = fn()
                torch.cuda.synchronize()
                us = do_bench(fn, warmup=25, rep=100) * 1000
                o = out.float()
                row = dict(op=name, config=config_text(cfg), us=us,
                           kernel_us=kernel_time(fn, KERNELS[name]),
                           checksum=float(o.sum()), absmax=float(o.abs().max()))
            except Exception as e:  # noqa: BLE001: a failing config is a result
                row = dict(op=name, config=config_text(cfg), error=f"{type(e).__name__}: {e}"[:300])
            rows.append(row)
            if "error" in row:
                print(f"{name:12s} {row['config']:44s} ERROR {row['error']}", flush=True)
            else:
                print(f"{name:12s} {row['config']:44s} {row['us']:8.1f} us  kernel "
                      f"{row['kernel_us']:8.1f} us  sum {row['checksum']:.6e}", flush=True)
        tuner.configs = configs
        tuner.cache = {}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(triton=triton.__version__, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
