#!/usr/bin/env python3
"""Liger-Kernel's operators (linkedin/Liger-Kernel, unmodified, in .ext/liger) timed under
whichever `triton` is active: run once with `python3` (Triton 3.6) and once with
`python3 -m kiln.run` (Kiln's drop-in), same seeded inputs, and compare the two JSON files
with --compare. Kernels nobody tuned for Kiln: the point is Kiln's code generation on a
library's own choices of blocks and warps.

Each operator runs through its autograd Function at a Llama-3-8B-sized shape (bf16, 8192
tokens unless the op says otherwise). Timed per op, CUDA events around each call, L2 flushed
before each (a 256 MB zero), median of --reps after --warmup:
  fwd   the forward under torch.no_grad()
  full  forward + backward (random upstream gradients, leaf .grad cleared before each rep)
and once under torch.profiler (full mode, --prof-reps calls back to back): each kernel's mean
CUDA time by name, so that a slow op points at its slow kernel. A checksum of the forward's
first output lets the two runs be compared for agreement. Device only.

    python3 bench/liger_bench.py --out triton.json [--only rms_norm,swiglu]
    python3 -m kiln.run bench/liger_bench.py --out kiln.json
    python3 bench/liger_bench.py --compare triton.json kiln.json [more pairs...]
"""
import argparse
import json
import math
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKENS, HIDDEN, INTER, VOCAB = 8192, 4096, 14336, 128256


def ops_table(torch, dev):
    """name -> maker; a maker returns (call, leaves): call() runs the op's forward."""
    from liger_kernel.ops import (cross_entropy, dyt, fused_add_rms_norm, geglu, group_norm,
                                  jsd, kl_div, layer_norm, poly_norm, relu_squared, rms_norm,
                                  rope, softmax, sparsemax, swiglu, tvd)
    bf16, f32 = torch.bfloat16, torch.float32

    def t(*shape, dtype=bf16, grad=True, scale=1.0):
        x = (torch.randn(shape, device=dev, dtype=f32) * scale).to(dtype)
        return x.requires_grad_(grad)

    def logp(*shape, dtype=f32, grad=True):
        x = torch.randn(*shape, device=dev, dtype=f32).log_softmax(-1).to(dtype)
        return x.requires_grad_(grad)

    def rms():
        x, w = t(TOKENS, HIDDEN), t(HIDDEN)
        return (lambda: rms_norm.LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False)), [x, w]

    def ln():
        x, w, b = t(TOKENS, HIDDEN), t(HIDDEN), t(HIDDEN)
        return (lambda: layer_norm.LigerLayerNormFunction.apply(x, w, b, 1e-6)), [x, w, b]

    def add_rms():
        x, r, w = t(TOKENS, HIDDEN), t(TOKENS, HIDDEN), t(HIDDEN)
        return (lambda: fused_add_rms_norm.LigerFusedAddRMSNormFunction.apply(
            x, r, w, 1e-6, 0.0, "llama", False)), [x, r, w]

    def silu_mul():
        a, b = t(TOKENS, INTER), t(TOKENS, INTER)
        return (lambda: swiglu.LigerSiLUMulFunction.apply(a, b)), [a, b]

    def gelu_mul():
        a, b = t(TOKENS, INTER), t(TOKENS, INTER)
        return (lambda: geglu.LigerGELUMulFunction.apply(a, b)), [a, b]

    def rope_():
        q, k = t(4, 32, 2048, 128), t(4, 8, 2048, 128)
        cos, sin = t(1, 2048, 128, grad=False), t(1, 2048, 128, grad=False)
        return (lambda: rope.LigerRopeFunction.apply(q, k, cos, sin)), [q, k]

    def ce():
        x = t(4096, VOCAB, dtype=bf16)
        y = torch.randint(0, VOCAB, (4096,), device=dev)
        return (lambda: cross_entropy.LigerCrossEntropyFunction.apply(x, y, None)), [x]

    def softmax_():
        x = t(TOKENS, HIDDEN)
        return (lambda: softmax.LigerSoftmaxFunction.apply(x)), [x]

    def kl():
        p, q = logp(4096, 32000), logp(4096, 32000, grad=False)
        return (lambda: kl_div.LigerKLDivLossFunction.apply(p, q, "batchmean", True)), [p]

    def jsd_():
        p, q = logp(4096, 32000), logp(4096, 32000, grad=False)
        return (lambda: jsd.LigerJSDFunction.apply(p, q, None, 0.5)), [p]

    def tvd_():
        p = torch.randn(4096, 32000, device=dev).softmax(-1).requires_grad_(True)
        q = torch.randn(4096, 32000, device=dev).softmax(-1)
        return (lambda: tvd.LigerTVDLossFunction.apply(p, q)), [p]

    def group():
        x, w, b = t(32, 128, 4096), t(128), t(128)
        return (lambda: group_norm.LigerGroupNormFunction.apply(x, w, b, 128, 32, 1e-6)), [x, w, b]

    def dyt_():
        x, alpha = t(TOKENS, HIDDEN), t(1, dtype=f32)
        gamma, beta = t(HIDDEN), t(HIDDEN)
        return (lambda: dyt.LigerDyTFunction.apply(x, alpha, gamma, beta)), [x, alpha, gamma, beta]

    def sparse():
        x = t(TOKENS, 1024)
        return (lambda: sparsemax.LigerSparsemaxFunction.apply(x, -1)), [x]

    def poly():
        x, w, b = t(TOKENS, HIDDEN), t(3, dtype=f32), t(dtype=f32)
        return (lambda: poly_norm.LigerPolyNormFunction.apply(x, w, b, 1e-6, False)), [x, w, b]

    def relu2():
        x = t(TOKENS, INTER)
        return (lambda: relu_squared.LigerReLUSquaredFunction.apply(x)), [x]

    return {"rms_norm": rms, "layer_norm": ln, "fused_add_rms_norm": add_rms,
            "swiglu": silu_mul, "geglu": gelu_mul, "rope": rope_, "cross_entropy": ce,
            "softmax": softmax_, "kl_div": kl, "jsd": jsd_, "tvd": tvd_, "group_norm": group,
            "dyt": dyt_, "sparsemax": sparse, "poly_norm": poly, "relu_squared": relu2}


def tensors_of(out):
    if isinstance(out, (tuple, list)):
        return [o for x in out for o in tensors_of(x)]
    return [out] if hasattr(out, "requires_grad") and out.requires_grad else []


def measure(torch, call, leaves, mode, reps, warmup, flush):
    grads = None

    def once():
        nonlocal grads
        if mode == "fwd":
            with torch.no_grad():
                return call()
        outs = tensors_of(call())
        if grads is None:
            grads = [torch.randn_like(o) for o in outs]
        torch.autograd.backward(outs, grads)

    times = []
    for i in range(warmup + reps):
        for x in leaves:
            x.grad = None
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        once()
        end.record()
        end.synchronize()
        if i >= warmup:
            times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times), once


def kernel_times(torch, once, leaves, calls):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            for x in leaves:
                x.grad = None
            once()
        torch.cuda.synchronize()
    found = {}
    for e in prof.key_averages():
        if e.device_time_total > 0 and e.count:
            found[e.key] = [round(e.device_time_total / e.count, 2), e.count // calls]
    return found


def run(args):
    sys.path.insert(0, os.path.join(ROOT, ".ext", "liger", "src"))
    os.environ.setdefault("LIGER_FUSED_MOE_AUTOTUNE", "0")
    import torch
    import triton
    dev = "cuda"
    table = ops_table(torch, dev)
    names = args.only.split(",") if args.only else list(table)
    flush = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device=dev)
    backend = "kiln" if getattr(triton, "__kiln__", False) else "triton"
    rows = []
    for name in names:
        torch.manual_seed(0)
        row = {"op": name, "backend": backend}
        try:
            call, leaves = table[name]()
            with torch.no_grad():
                first = tensors_of(call()) or [call()]
            out0 = first[0] if not isinstance(first[0], (tuple, list)) else first[0][0]
            row["checksum"] = float(out0.float().sum().item())
            row["fwd_us"], _ = measure(torch, call, leaves, "fwd", args.reps, args.warmup, flush)
            row["full_us"], once = measure(torch, call, leaves, "full", args.reps, args.warmup,
                                           flush)
            if args.prof_reps:
                row["kernels"] = kernel_times(torch, once, leaves, args.prof_reps)
        except Exception as e:  # one op's failure must not hide the others
            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


def compare(pairs):
    """Each pair: a Triton JSON and a Kiln JSON from the same call; ratios are Kiln / Triton
    time (below 1: Kiln faster), the geometric mean over the pairs per op."""
    by_op = {}
    for tri_path, kiln_path in zip(pairs[::2], pairs[1::2]):
        tri = {r["op"]: r for r in json.load(open(tri_path))}
        for r in json.load(open(kiln_path)):
            by_op.setdefault(r["op"], []).append((tri.get(r["op"], {}), r))
    logs = {"fwd_us": [], "full_us": []}
    print(f"{'op':20} {'Triton fwd':>10} {'Kiln fwd':>9} {'ratio':>6} "
          f"{'Triton full':>11} {'Kiln full':>9} {'ratio':>6}  checksum")
    for op, runs in by_op.items():
        cells, agree = [], True
        for key in ("fwd_us", "full_us"):
            tt = [t[key] for t, k in runs if key in t and key in k]
            kt = [k[key] for t, k in runs if key in t and key in k]
            if not tt:
                cells += ["-", "-", "-"]
                continue
            ratio = math.exp(statistics.mean(math.log(b / a) for a, b in zip(tt, kt)))
            logs[key].append(math.log(ratio))
            cells += [f"{statistics.median(tt):.1f}", f"{statistics.median(kt):.1f}",
                      f"{ratio:.3f}"]
        for t, k in runs:
            a, b = t.get("checksum"), k.get("checksum")
            if a is None or b is None or abs(a - b) > 1e-2 * max(1.0, abs(a)):
                agree = False
        err = next((r.get("error") for pair in runs for r in pair if r.get("error")), "")
        print(f"{op:20} {cells[0]:>10} {cells[1]:>9} {cells[2]:>6} {cells[3]:>11} "
              f"{cells[4]:>9} {cells[5]:>6}  {'same' if agree else 'DIFFERS'} {err}")
        t, k = runs[0]
        for kname, (ktime, per) in sorted(k.get("kernels", {}).items()):
            if kname in t.get("kernels", {}) and not kname.startswith(("void ", "at::")):
                ttime = t["kernels"][kname][0]
                print(f"    {kname[:60]:60} x{per} {ttime:9.1f} {ktime:9.1f} "
                      f"{ktime / ttime:6.3f}")
    for key, vals in logs.items():
        if vals:
            print(f"geomean {key}: {math.exp(statistics.mean(vals)):.3f} over {len(vals)} ops")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--prof-reps", type=int, default=10,
                    help="calls under torch.profiler (0: none, e.g. under ncu)")
    ap.add_argument("--compare", nargs="+", metavar="JSON",
                    help="Triton / Kiln JSON files in pairs")
    args = ap.parse_args()
    if args.compare:
        if len(args.compare) % 2:
            ap.error("--compare takes Triton / Kiln files in pairs")
        compare(args.compare)
    else:
        run(args)


if __name__ == "__main__":
    main()
