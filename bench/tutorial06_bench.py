#!/usr/bin/env python3
"""The fused-attention tutorial (06) benchmarked as its own script does, on a subset that fits a
device window, under whichever `triton` is active: `python3` (Triton 3.6) or `python3 -m kiln.run`
(Kiln's drop-in). The tutorial file is imported unmodified; its `bench_flash_attention` function
(autotuned `_attn_fwd` over its 36 configs of BLOCK_M, BLOCK_N, num_stages and num_warps, the
backward kernels at their fixed configs) runs for the shapes chosen here, and each row prints the
TFLOP/s the tutorial reports plus the config its autotuner chose. Device only.

    python3 bench/tutorial06_bench.py [--tutorial FILE] [--head-dims 64,128] [--modes fwd,bwd]
                                      [--n-ctx 1024,2048,4096,8192] [--causal both|yes|no]
                                      [--per-config | --config BM,BN,STAGES,WARPS] [--json OUT]

--per-config forces each config of `_attn_fwd`'s autotune list in turn (the autotuner's configs
narrowed to it, its cache cleared: the forward's rows only), so that the two compilers can be
compared config by config; --config forces one (e.g. for ncu).
"""
import argparse
import importlib.util
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = os.path.join(ROOT, ".ext", "triton-tutorials", "06-fused-attention.py")


def load(path):
    spec = importlib.util.spec_from_file_location("fused_attention_tutorial", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def chosen(autotuned):
    cfg = getattr(autotuned, "best_config", None)
    if cfg is None:
        return None
    return dict(cfg.kwargs, num_warps=cfg.num_warps, num_stages=cfg.num_stages)


def config_key(cfg):
    return (cfg.kwargs["BLOCK_M"], cfg.kwargs["BLOCK_N"], cfg.num_stages, cfg.num_warps)


def forced(tuner, wanted):
    """The configs to run one by one: every one of the tuner's list, or the one named."""
    configs = list(tuner.configs)
    if wanted is None:
        return configs
    picked = [c for c in configs if config_key(c) == wanted]
    if not picked:
        sys.exit(f"config {wanted} is not in the tutorial's list")
    return picked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tutorial", default=DEFAULT)
    ap.add_argument("--head-dims", default="64,128")
    ap.add_argument("--modes", default="fwd,bwd")
    ap.add_argument("--n-ctx", default="1024,2048,4096,8192")
    ap.add_argument("--causal", choices=("both", "yes", "no"), default="both")
    ap.add_argument("--per-config", action="store_true")
    ap.add_argument("--config", help="BM,BN,STAGES,WARPS: force this config only")
    ap.add_argument("--json")
    args = ap.parse_args()
    wanted = tuple(map(int, args.config.split(","))) if args.config else None
    causals = {"both": (True, False), "yes": (True,), "no": (False,)}[args.causal]
    import triton
    mod = load(args.tutorial)
    bench = mod.bench_flash_attention.fn
    tuner = mod._attn_fwd
    every = list(tuner.configs)
    runs = [None] if not (args.per_config or wanted) else forced(tuner, wanted)
    rows = []
    for head_dim in map(int, args.head_dims.split(",")):
        for mode in args.modes.split(","):
            for causal in causals:
                for n_ctx in map(int, args.n_ctx.split(",")):
                    for cfg in runs:
                        if cfg is not None:
                            tuner.configs, tuner.cache = [cfg], {}
                        start = time.perf_counter()
                        row = dict(head_dim=head_dim, mode=mode, causal=causal, n_ctx=n_ctx)
                        try:
                            row["tflops"] = bench(mod.BATCH, mod.N_HEADS, n_ctx, head_dim, causal,
                                                  False, mode, "triton-fp16")
                            row["config"] = chosen(tuner)
                        except Exception as e:  # a failing shape is a result, not a stop
                            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
                        row["seconds"] = round(time.perf_counter() - start, 2)
                        rows.append(row)
                        print(json.dumps(row), flush=True)
    tuner.configs, tuner.cache = every, {}
    print("triton", triton.__version__)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
