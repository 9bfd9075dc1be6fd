#!/usr/bin/env python3
"""Time the LayerNorm kernels under Triton and compare with ln-bench.

Runs the SAME kernel file Kiln compiles (examples/layernorm/layer_norm.py,
valid Triton) under Triton with the shapes and launch parameters recorded in
ln-bench's JSON (BLOCK_SIZE, num_warps, GROUP_SIZE_M, ...), timed with
triton.testing.do_bench (median; it flushes the L2 by zeroing a 256 MB
buffer before every repetition, as ln-bench does), and prints Kiln time /
Triton time per shape and dtype. The backward is timed as ln-bench times it:
zeroing the locks and partial sums, then both backward kernels.

    python3 bench/compare_triton.py ln-bench.json [--kernels PATH]
        [--markdown OUT.md] [--json OUT.json]
"""
import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time

# A fresh Triton cache, so the cold compile time below is really cold.
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

import torch  # noqa: E402
import triton  # noqa: E402
from triton.testing import do_bench  # noqa: E402

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
EPS = 1e-5


def load_kernels(path):
    spec = importlib.util.spec_from_file_location("kiln_layer_norm", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_inputs(M, N, dtype):
    dev = "cuda"
    x = -2.3 + 0.5 * torch.randn((M, N), device=dev, dtype=dtype)
    w = torch.rand((N,), device=dev, dtype=dtype)
    b = torch.rand((N,), device=dev, dtype=dtype)
    dy = 0.1 * torch.randn((M, N), device=dev, dtype=dtype)
    return x, w, b, dy


class Runner:
    """The tutorial's host code with the launch parameters ln-bench used."""

    def __init__(self, k, M, N, dtype, fwd_cfg, bwd_cfg):
        self.k, self.M, self.N = k, M, N
        self.fwd_cfg, self.bwd_cfg = fwd_cfg, bwd_cfg
        self.x, self.w, self.b, self.dy = make_inputs(M, N, dtype)
        dev = self.x.device
        self.y = torch.empty_like(self.x)
        self.mean = torch.empty((M,), dtype=torch.float32, device=dev)
        self.rstd = torch.empty((M,), dtype=torch.float32, device=dev)
        G = bwd_cfg["GROUP_SIZE_M"]
        self.locks = torch.zeros(2 * G, dtype=torch.int32, device=dev)
        self._dw = torch.zeros((G, N), dtype=dtype, device=dev)
        self._db = torch.zeros((G, N), dtype=dtype, device=dev)
        self.dx = torch.empty_like(self.dy)
        self.dw = torch.empty((N,), dtype=dtype, device=dev)
        self.db = torch.empty((N,), dtype=dtype, device=dev)

    def forward(self):
        self.k._layer_norm_fwd_fused[(self.M,)](
            self.x, self.y, self.w, self.b, self.mean, self.rstd,
            self.x.stride(0), self.N, EPS,
            BLOCK_SIZE=self.fwd_cfg["BLOCK_SIZE"],
            num_warps=self.fwd_cfg["num_warps"])

    def backward(self):
        c = self.bwd_cfg
        self.locks.zero_()
        self._dw.zero_()
        self._db.zero_()
        self.k._layer_norm_bwd_dx_fused[(self.M,)](
            self.dx, self.dy, self._dw, self._db, self.x, self.w, self.mean,
            self.rstd, self.locks, self.x.stride(0), self.N,
            GROUP_SIZE_M=c["GROUP_SIZE_M"], BLOCK_SIZE_N=c["BLOCK_SIZE_N"],
            num_warps=c["num_warps"])
        grid = (triton.cdiv(self.N, c["dwdb_BLOCK_SIZE_N"]),)
        self.k._layer_norm_bwd_dwdb[grid](
            self._dw, self._db, self.dw, self.db,
            min(c["GROUP_SIZE_M"], self.M), self.N,
            BLOCK_SIZE_M=c["dwdb_BLOCK_SIZE_M"],
            BLOCK_SIZE_N=c["dwdb_BLOCK_SIZE_N"],
            num_warps=c["dwdb_num_warps"])


def bench(fn, min_reps):
    """Median ms over at least `min_reps` repetitions (do_bench's `rep` is a
    time budget, so it is sized from a first estimate)."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        fn()
    end.record()
    torch.cuda.synchronize()
    est = max(start.elapsed_time(end) / 5, 1e-3)
    rep_ms = max(100.0, 1.2 * min_reps * est)
    return do_bench(fn, warmup=25, rep=rep_ms, return_mode="median")


def check_forward(r):
    """Triton's own output against PyTorch, so a broken setup is noticed."""
    r.forward()
    ref = torch.nn.functional.layer_norm(
        r.x.float(), (r.N,), r.w.float(), r.b.float(), EPS)
    return (r.y.float() - ref).abs().max().item()


def host_launch_us(r):
    per = []
    for batch in range(21):
        t0 = time.perf_counter()
        for _ in range(100):
            r.forward()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        if batch:
            per.append((t1 - t0) / 100 * 1e6)
    return statistics.median(per)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kiln_json", help="ln-bench --json output")
    ap.add_argument("--kernels", default=os.path.join(
        here, "..", "examples", "layernorm", "layer_norm.py"))
    ap.add_argument("--markdown", help="write the table as markdown here")
    ap.add_argument("--json", help="write Triton's timings as JSON here")
    args = ap.parse_args()

    with open(args.kiln_json) as f:
        kiln = json.load(f)
    k = load_kernels(args.kernels)
    min_reps = kiln.get("method", {}).get("reps", 100)
    print(f"Triton {triton.__version__}, torch {torch.__version__}, "
          f"{torch.cuda.get_device_name()}; kernels from {os.path.relpath(args.kernels)}")

    rows, out = [], []
    cold = {}
    for r in kiln["results"]:
        if "error" in r:
            rows.append((r["dtype"], r["M"], r["N"], None, None, None, None,
                         "Kiln: " + r["error"].splitlines()[0]))
            continue
        dtype = DTYPES[r["dtype"]]
        runner = Runner(k, r["M"], r["N"], dtype, r["fwd"], r["bwd"])
        try:
            if r["dtype"] not in cold:  # First use of this dtype: compile.
                t0 = time.perf_counter()
                runner.forward()
                torch.cuda.synchronize()
                cold[r["dtype"]] = (time.perf_counter() - t0) * 1e3
            err = check_forward(runner)
            t_fwd = bench(runner.forward, min_reps)
            t_bwd = bench(runner.backward, min_reps)
        except Exception as e:  # Keep going: one failure is one table cell.
            rows.append((r["dtype"], r["M"], r["N"], r["fwd_ms"], None,
                         r["bwd_ms"], None, f"Triton: {type(e).__name__}: {e}"))
            continue
        note = "" if err < 1e-1 else f"Triton fwd max err {err:.3g}"
        rows.append((r["dtype"], r["M"], r["N"], r["fwd_ms"], t_fwd,
                     r["bwd_ms"], t_bwd, note))
        out.append({"dtype": r["dtype"], "M": r["M"], "N": r["N"],
                    "triton_fwd_ms": t_fwd, "triton_bwd_ms": t_bwd,
                    "kiln_fwd_ms": r["fwd_ms"], "kiln_bwd_ms": r["bwd_ms"],
                    "triton_fwd_max_err_vs_torch": err})
        del runner
        torch.cuda.empty_cache()

    launch_us = None
    try:
        small = Runner(k, 1, 1024, torch.float16,
                       {"BLOCK_SIZE": 1024, "num_warps": 4},
                       {"GROUP_SIZE_M": 256, "BLOCK_SIZE_N": 1024, "num_warps": 4,
                        "dwdb_BLOCK_SIZE_M": 32, "dwdb_BLOCK_SIZE_N": 128,
                        "dwdb_num_warps": 4})
        launch_us = host_launch_us(small)
    except Exception as e:
        print(f"launch overhead: {type(e).__name__}: {e}")

    def fmt(v, spec):
        return "-" if v is None else format(v, spec)

    def ratio(a, b):
        return None if a is None or b is None or b == 0 else a / b

    head = ("| dtype | M | N | Kiln fwd ms | Triton fwd ms | Kiln/Triton fwd "
            "| Kiln bwd ms | Triton bwd ms | Kiln/Triton bwd | note |")
    lines = [head, "|" + "---|" * 10]
    for d, M, N, kf, tf, kb, tb, note in rows:
        lines.append(f"| {d} | {M} | {N} | {fmt(kf, '.4f')} | {fmt(tf, '.4f')} "
                     f"| {fmt(ratio(kf, tf), '.2f')} | {fmt(kb, '.4f')} "
                     f"| {fmt(tb, '.4f')} | {fmt(ratio(kb, tb), '.2f')} | {note} |")
    fr = [ratio(kf, tf) for _, _, _, kf, tf, _, _, _ in rows if ratio(kf, tf)]
    br = [ratio(kb, tb) for _, _, _, _, _, kb, tb, _ in rows if ratio(kb, tb)]
    summary = []
    if fr:
        summary.append(f"Kiln/Triton time, geometric mean over {len(fr)} shapes: "
                       f"forward {statistics.geometric_mean(fr):.2f}, "
                       f"backward {statistics.geometric_mean(br):.2f}" if br else "")
    if cold:
        summary.append("Triton cold compile + first launch of the forward kernel: " +
                       ", ".join(f"{d} {ms:.0f} ms" for d, ms in cold.items()))
    lo = kiln.get("launch_overhead", {})
    if launch_us is not None:
        summary.append(f"Host launch overhead, forward kernel: Triton {launch_us:.1f} us"
                       + (f", Kiln {lo['fwd_kernel_launch_us']:.1f} us"
                          if "fwd_kernel_launch_us" in lo else ""))
    table = "\n".join(lines + [""] + [s for s in summary if s])
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"Device: {kiln['device']['name']}; Kiln {kiln['kiln_version']}; "
                    f"Triton {triton.__version__}; {kiln['date']}\n\n")
            f.write(table + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"triton_version": triton.__version__, "results": out,
                       "triton_cold_fwd_ms": cold,
                       "triton_fwd_launch_us": launch_us}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
