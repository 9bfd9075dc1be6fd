#!/usr/bin/env python3
"""LayerNorm side by side on one GPU: Kiln's best against the alternatives.

Columns (each skipped with the reason printed when it cannot run):
  kiln         examples/layernorm/layer_norm_fast.py through Kiln's launch path
               (kiln.jit(path).kernel[grid](...), bench/layernorm_host.py)
  tutorial     Triton's tutorial 05-layer-norm.py under Triton (.ext/triton-tutorials;
               rows up to 64 KB and M*N < 2^31, as the tutorial's int32 offsets allow)
  torch        torch.nn.functional.layer_norm (eager)
  compiled     torch.compile(torch.nn.functional.layer_norm)
  flash        FlashAttention's Triton layer_norm_fn under Triton (.ext/flash-attention)
  ours_triton  (--ours-under-triton) the same layer_norm_fast.py kernels under Triton
  copy         the bandwidth ceiling, not a LayerNorm: torch copies moving exactly the
               formula's bytes (fwd: y = x; fwdbwd: also dx = x + dy); never in "best other"

Modes: fwd (y, mean, rstd) and fwdbwd (forward, then dx, dw, db for dy).
Bytes (the tutorial's formulas): fwd 2*|x| + |w| + |b|; fwdbwd = fwd + 3*|x| (the tutorial's
backward counts x, dy and dx).

Method: inputs as the tutorial (x = -2.3 + 0.5 randn, w, b = rand, dy = 0.1 randn). Before
timing, every column's outputs are checked against an fp32 torch reference (max error relative to
max |ref|: 2e-2 fp16, 6e-2 bf16, 2e-4 fp32). Kiln must pass; another column within 25x is timed
and flagged ("loose" in the JSON: the tutorial sums dw/db in the input dtype), else not timed. Each
timed repetition flushes L2 first (--flush write: zeroes a 256 MB buffer, as
triton.testing.do_bench does, which leaves up to an L2 of dirty lines that the timed kernels
then write back; --flush read: sums the buffer instead, leaving clean lines), queues a GPU sleep
longer than the host takes to queue the call (>= ~50 us; so that the start event runs after the
call is queued: device time, not host launch overhead; --host-time leaves it out) and is
bracketed by CUDA events; the result is the median over the repetitions after warm-up.

Run on the device from the repository root (libkiln.so built in build/lib):
  python3 bench/layernorm_best.py --out bench-out [--quick] [--max-seconds 420]
      [--dtype fp16,bf16] [--mode fwd,fwdbwd] [--M 4096,65536] [--N 512,...]
      [--columns kiln,tutorial,torch,compiled,flash] [--ours-under-triton] [--tune]
--tune also times Kiln with launch parameters around the heuristic's choice (rows per program,
warps, chunk, programs per SM) and logs the best: the data for adjusting planNorm.
Writes OUT/layernorm_best[-TAG].json (appending when it exists, so shards accumulate; a shard's
rows replace rows of the same key) and OUT/layernorm_<mode>_<dtype>.png per mode and dtype
from everything accumulated, and prints a markdown table. Shards from separate device calls
(each with its own empty output folder) merge without a GPU:
  python3 bench/layernorm_best.py --plot-only --out DIR --merge shard1.json shard2.json ...
"""
import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.join(ROOT, "python"))  # after PYTHONPATH (the device bundle)
sys.path.insert(0, os.path.join(ROOT, "bench"))
if "KILN_LIBRARY" not in os.environ and os.path.exists(
        os.path.join(ROOT, "build", "lib", "libkiln.so")):
    os.environ["KILN_LIBRARY"] = os.path.join(ROOT, "build", "lib", "libkiln.so")

try:  # --plot-only needs neither torch nor a GPU
    import torch
    import torch.nn.functional as F
    import layernorm_host as lh
except ImportError as _e:
    torch = F = lh = None
    _import_error = _e

# KILN_LN_KERNELS / KILN_LN_COOP_KERNELS: other copies of the files (A/B
# experiments on the device).
KERNELS = os.environ.get("KILN_LN_KERNELS") or os.path.join(
    ROOT, "examples", "layernorm", "layer_norm_fast.py")
COOP_KERNELS = os.environ.get("KILN_LN_COOP_KERNELS") or os.path.join(
    ROOT, "examples", "layernorm", "layer_norm_coop.py")
# Names of torch dtypes: the module imports without torch (--plot-only).
DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32"}
ALL_N = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144]
ALL_M = [4096, 65536]
EPS = 1e-5
COLUMNS = ["kiln", "tutorial", "torch", "compiled", "flash", "ours_triton", "copy"]
# Columns that are not LayerNorms: shown, never compared against.
CEILINGS = {"copy"}


def log(*a):
    print(*a, flush=True)


# ----------------------------------------------------------------------------------------------
# Columns: each is a factory(ctx) -> (fwd(x, w, b) -> (y, mean, rstd) | y,
#                                     fwdbwd(x, w, b, dy) -> (y, dx, dw, db)), or raises Skip.
# ----------------------------------------------------------------------------------------------
class Skip(Exception):
    pass


def load_file_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def kiln_module():
    try:
        import kiln
    except Exception as e:  # noqa: BLE001
        raise Skip(f"the kiln package does not load: {e}")
    return kiln.jit(KERNELS), kiln.jit(COOP_KERNELS)


def kiln_column(args):
    return ours_column(*kiln_module())


def ours_triton_column(args):
    return ours_column(load_file_module("layer_norm_fast_triton", KERNELS),
                       load_file_module("layer_norm_coop_triton", COOP_KERNELS))


def ours_column(module, coop_module=None, tune_fwd=None,
                tune_bwd=None):
    norm = lh.FastNorm(module, tune_fwd=tune_fwd, tune_bwd=tune_bwd,
                       coop_module=coop_module)

    def fwd(x, w, b):
        r = norm.forward(x, w, b, EPS)
        return r["y"], r["mean"], r["rstd"]

    def fwdbwd(x, w, b, dy):
        r = norm.forward(x, w, b, EPS)
        g = norm.backward(dy, x, w, b, r["mean"], r["rstd"])
        return r["y"], g["dx"], g["dw"], g["db"]
    return fwd, fwdbwd


def tutorial_column(args):
    path = os.path.join(args.ext, "triton-tutorials", "05-layer-norm.py")
    if not os.path.exists(path):
        raise Skip(f"{path} is absent")
    # The tutorial runs its test and benchmark at import: drop those two top-level calls.
    src = open(path).read().splitlines()
    kept = [ln for ln in src if not ln.startswith(("test_layer_norm(", "bench_layer_norm.run("))]
    tmp = os.path.join(tempfile.mkdtemp(prefix="ln-tutorial-"), "tutorial_layer_norm.py")
    with open(tmp, "w") as f:
        f.write("\n".join(kept) + "\n")
    mod = load_file_module("tutorial_layer_norm", tmp)

    def check(x):
        M, N = x.shape
        if N * x.element_size() > 65536:
            raise Skip("rows above 64 KB are an error in the tutorial")
        if M * N >= 2 ** 31:
            raise Skip("M*N >= 2^31 overflows the tutorial's int32 offsets")

    def fwd(x, w, b):
        check(x)
        return mod.layer_norm(x, (x.shape[1],), w, b, EPS)

    def fwdbwd(x, w, b, dy):
        check(x)
        xg = x.detach().requires_grad_(True)
        wg, bg = w.detach().requires_grad_(True), b.detach().requires_grad_(True)
        y = mod.layer_norm(xg, (x.shape[1],), wg, bg, EPS)
        dx, dw, db = torch.autograd.grad(y, (xg, wg, bg), dy)
        return y, dx, dw, db
    return fwd, fwdbwd


def autograd_column(fn):
    def fwd(x, w, b):
        return fn(x, (x.shape[1],), w, b, EPS)

    def fwdbwd(x, w, b, dy):
        xg = x.detach().requires_grad_(True)
        wg, bg = w.detach().requires_grad_(True), b.detach().requires_grad_(True)
        y = fn(xg, (x.shape[1],), wg, bg, EPS)
        dx, dw, db = torch.autograd.grad(y, (xg, wg, bg), dy)
        return y, dx, dw, db
    return fwd, fwdbwd


def torch_column(args):
    return autograd_column(F.layer_norm)


def compiled_column(args):
    import torch._dynamo
    # One compile per shape: keep dynamo from falling back to eager after 8.
    for knob in ("cache_size_limit", "recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(torch._dynamo.config, knob):
            setattr(torch._dynamo.config, knob, 4096)
    return autograd_column(torch.compile(F.layer_norm, dynamic=False))


def flash_column(args):
    src = os.path.join(args.ext, "flash-attention")
    if not os.path.exists(os.path.join(src, "layer_norm.py")):
        raise Skip(f"{src}/layer_norm.py is absent")
    pkg = tempfile.mkdtemp(prefix="fa-")
    for d in ["flash_attn", "flash_attn/ops", "flash_attn/ops/triton", "flash_attn/utils"]:
        os.makedirs(os.path.join(pkg, d), exist_ok=True)
        open(os.path.join(pkg, d, "__init__.py"), "w").close()
    shutil.copy(os.path.join(src, "layer_norm.py"),
                os.path.join(pkg, "flash_attn/ops/triton/layer_norm.py"))
    for m in ["torch.py", "library.py"]:
        if os.path.exists(os.path.join(src, "utils", m)):
            shutil.copy(os.path.join(src, "utils", m), os.path.join(pkg, "flash_attn/utils", m))
    sys.path.insert(0, pkg)
    import flash_attn.ops.triton.layer_norm as fa

    def check(x):
        if x.shape[0] * x.shape[1] >= 2 ** 31:
            raise Skip("M*N >= 2^31: FlashAttention's int32 row offsets")

    def fwd(x, w, b):
        check(x)
        return fa.layer_norm_fn(x, w, b, eps=EPS)

    def fwdbwd(x, w, b, dy):
        check(x)
        xg = x.detach().requires_grad_(True)
        wg, bg = w.detach().requires_grad_(True), b.detach().requires_grad_(True)
        y = fa.layer_norm_fn(xg, wg, bg, eps=EPS)
        dx, dw, db = torch.autograd.grad(y, (xg, wg, bg), dy)
        return y, dx, dw, db
    return fwd, fwdbwd


def copy_column(args):
    """Plain copies moving the formula's bytes: the ceiling a memory-bound
    kernel can reach at this shape under the same flush and timing."""
    def fwd(x, w, b):
        return torch.empty_like(x).copy_(x)

    def fwdbwd(x, w, b, dy):
        y = torch.empty_like(x).copy_(x)
        return y, torch.add(x, dy), None, None
    return fwd, fwdbwd


FACTORIES = {"kiln": kiln_column, "tutorial": tutorial_column, "torch": torch_column,
             "compiled": compiled_column, "flash": flash_column,
             "ours_triton": ours_triton_column, "copy": copy_column}


# ----------------------------------------------------------------------------------------------
# Correctness and timing
# ----------------------------------------------------------------------------------------------
def reference_fp32(x, w, b, dy):
    """fp32 torch reference, chunked over rows so that large shapes fit."""
    M, N = x.shape
    y = torch.empty_like(x)
    dx = torch.empty_like(x) if dy is not None else None
    dw = torch.zeros((N,), dtype=torch.float32, device=x.device)
    db = torch.zeros((N,), dtype=torch.float32, device=x.device)
    wf, bf = w.float(), b.float()
    step = max(1, (1 << 26) // N)
    for r in range(0, M, step):
        xc = x[r:r + step].float()
        mean = xc.mean(1, keepdim=True)
        rstd = torch.rsqrt(((xc - mean) ** 2).mean(1, keepdim=True) + EPS)
        xhat = (xc - mean) * rstd
        y[r:r + step] = (xhat * wf + bf).to(x.dtype)
        if dy is not None:
            g = dy[r:r + step].float()
            wdy = g * wf
            c1 = (xhat * wdy).mean(1, keepdim=True)
            c2 = wdy.mean(1, keepdim=True)
            dx[r:r + step] = ((wdy - (xhat * c1 + c2)) * rstd).to(x.dtype)
            dw += (g * xhat).sum(0)
            db += g.sum(0)
    return y, dx, dw, db


def rel_err(got, want):
    g = got.float()
    if not torch.isfinite(g).all():
        return float("inf")
    return ((g - want.float()).abs().max() / (want.float().abs().max() + 1e-6)).item()


def check_column(fns, mode, x, w, b, dy, ref):
    tol = lh.tolerance(x.dtype)
    if mode == "fwd":
        out = fns[0](x, w, b)
        y = out[0] if isinstance(out, tuple) else out
        errs = {"y": rel_err(y, ref[0])}
    else:
        y, dx, dw, db = fns[1](x, w, b, dy)
        errs = {"y": rel_err(y, ref[0]), "dx": rel_err(dx, ref[1]),
                "dw": rel_err(dw, ref[2]), "db": rel_err(db, ref[3])}
    bad = {k: v for k, v in errs.items() if not v <= tol}
    return not bad, errs


def loose_enough(errs, dtype):
    """Outside the strict tolerance but still a LayerNorm (the tutorial sums dw/db in the
    input dtype through its lock-protected partial rows): timed, flagged in the JSON."""
    return all(v <= 25 * lh.tolerance(dtype) for v in errs.values())


# Cycles of the GPU sleep queued before each timed call (~50 us at 1.98 GHz):
# the start event runs after it, by which time the host has queued the
# call's launches, so the time is the device's, not the host's launch path
# (Python launch overhead is measured elsewhere). 0 (--host-time): no sleep,
# as triton.testing.do_bench times.
SLEEP_CYCLES = 100_000
# --tune-keys: run only the tuning candidates with one of these keys (all when empty).
TUNE_KEYS = set()
# GPU cycles per microsecond of host time when the sleep is stretched to
# cover a slow host path (H100 boost clock ~1.98 GHz; more is harmless).
CYCLES_PER_US = 2000


class Flush:
    """Evicts L2 before a timed call. 'write' zeroes the buffer (as
    triton.testing.do_bench): L2 then holds dirty lines of it, written back
    to DRAM while the timed kernels run. 'read' sums it: L2 holds clean lines
    and the timed kernels pay only for their own traffic."""

    def __init__(self, kind, nbytes=256 << 20):
        self.kind = kind
        self.buf = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda")
        self.buf.zero_()
        self.sink = torch.empty((), dtype=torch.float32, device="cuda")

    def __call__(self):
        if self.kind == "write":
            self.buf.zero_()
        else:
            torch.sum(self.buf, 0, out=self.sink)


def host_cycles(fn):
    """Sleep cycles that outlast the host's queueing of fn (its Python and
    launch path), so the start event is recorded after fn's work is queued."""
    torch.cuda.synchronize()
    t = []
    for _ in range(3):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
        torch.cuda.synchronize()
    return max(SLEEP_CYCLES, int(2 * min(t) * 1e6 * CYCLES_PER_US))


def time_it(fn, flush, warmup, reps, max_s):
    for _ in range(warmup):
        fn()
    sleep = host_cycles(fn) if SLEEP_CYCLES else 0
    torch.cuda.synchronize()
    times = []
    t0 = time.time()
    for _ in range(reps):
        flush()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        if sleep:
            torch.cuda._sleep(sleep)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
        if time.time() - t0 > max_s and len(times) >= 3:
            break
    return statistics.median(times)


def tune_candidates(mode, M, N, sms):
    """Launch-parameter variants around the heuristic's choice (--tune): rows
    per tile, warps, the pipelined kernels (pipe), chunk lengths, programs per
    SM, the cooperative kernels."""
    block = lh.next_pow2(N)
    out = []

    def add(cfg):
        if cfg not in out:
            out.append(cfg)
    if mode == "fwd":
        name, consts, warps, _ = lh.plan_forward(M, N)
        if name == "_norm_fwd":
            r = consts["ROWS"]
            for rows in sorted({max(1, r // 2), r, min(lh.MAX_ROWS, 2 * r)}):
                for wp in sorted({max(1, warps // 2), warps, min(32, warps * 2)}):
                    if rows * block <= 65536 and rows * block >= 32 * wp:
                        add({"rows": rows, "warps": wp})
            if block <= 2048:  # a row or two per warp: no exchange between warps
                for rows in (1, 2, 4):
                    for wp in (1, 2):
                        if rows * block >= 32 * wp * 8:
                            add({"rows": rows, "warps": wp})
            for pipe in (1, 2, 4):
                for rows in sorted({max(1, r // 2), r}):
                    for wp in sorted({max(4, warps // 2), warps}):
                        if rows * block >= 32 * wp:
                            add({"rows": rows, "warps": wp, "pipe": pipe})
            if block >= 8192:  # the looped variants on rows that still fit
                for chunk, wp in ((2048, 4), (4096, 8), (8192, 16)):
                    add({"chunk": chunk, "warps": wp})
                    add({"chunk": chunk, "warps": wp, "pipe": 1})
                for chunk, wp in ((4096, 8), (8192, 16)):
                    if lh.cdiv(N, chunk) <= sms // 2:
                        add({"coop": chunk, "warps": wp})
        else:
            for chunk, wp in ((2048, 4), (2048, 8), (2048, 16), (4096, 4), (4096, 8),
                              (4096, 16), (8192, 8), (8192, 16), (16384, 16), (16384, 32)):
                add({"chunk": chunk, "warps": wp})
                add({"chunk": chunk, "warps": wp, "pipe": 1})
            if block <= 32768:  # the whole row in registers (32 per thread)
                add({"rows": 1, "warps": 32})
                add({"rows": 1, "warps": 32, "pipe": 1})
            if block <= 16384:  # 64 per thread, as a one-block loop over the row holds it
                for pipe in (0, 1, 2):
                    add({"rows": 1, "warps": 16, **({"pipe": pipe} if pipe else {})})
            # The cooperative forward (_norm_fwd_coop).
            for chunk, wp, per_sm, ahead in ((8192, 8, 1, 1), (8192, 16, 1, 1), (16384, 16, 1, 0),
                                             (16384, 16, 1, 1), (16384, 32, 1, 1)):
                if lh.cdiv(N, chunk) <= sms // 2:
                    add({"coop": chunk, "warps": wp, "per_sm": per_sm, "ahead": ahead})
        return out, "fwd"
    plan = lh.plan_backward(M, N, sms)
    if plan["variant"] == "rows":
        r, warps = plan["consts"]["ROWS"], plan["num_warps"]
        for rows in sorted({max(1, r // 2), r, min(lh.MAX_ROWS, 2 * r)}):
            for wp in sorted({max(1, warps // 2), warps, min(32, warps * 2)}):
                if rows * block <= 32768 and rows * block >= 32 * wp:
                    add({"rows": rows, "warps": wp})
        for per_sm in (1, 2, 4):
            add({"per_sm": per_sm})
        for wp in sorted({max(4, warps // 2), warps}):
            for per_sm in (1, 2):
                add({"warps": wp, "per_sm": per_sm, "pipe": 1})
        if r > 1:
            add({"rows": r // 2, "warps": max(4, warps // 2), "per_sm": 2, "pipe": 1})
        if block == lh.BWD_PIPE_WIDE_BLOCK:  # the columns backward it replaced
            for wp in (16, 32):
                add({"cols": 1, "warps": wp})
    if plan["variant"] != "rows" or block >= 8192:
        # The cooperative backward (_norm_bwd_coop) at other chunk lengths.
        for chunk, wp, ahead in ((4096, 16, 1), (8192, 8, 1), (8192, 16, 0),
                                 (8192, 16, 1)):
            if lh.cdiv(N, chunk) <= sms // 2:
                add({"coop": chunk, "warps": wp, "ahead": ahead})
    if plan["variant"] == "rows":
        pass
    elif plan["variant"] == "cols":
        for chunk in (4096, 8192, 16384):
            for wp in (16, 32):
                for per_sm in (1, 2):
                    if chunk >= 32 * wp * 4 and chunk <= block:
                        add({"chunk": chunk, "warps": wp, "per_sm": per_sm})
        if block <= lh.BWD_ONE_PASS_MAX:  # the one-pass _norm_bwd it replaced
            add({"rows": 1, "warps": 32})
            add({"rows": 1, "warps": 32, "pipe": 1})
            add({"rows": 1, "warps": 16, "pipe": 1})
        add({"no_columns": True})
    else:
        for chunk in (512, 1024, 2048, 4096):
            for wp in (8, 16):
                for per_sm in (2, 4):
                    add({"chunk": chunk, "warps": wp, "per_sm": per_sm})
    return out, "bwd"


def run_tune(mode, x, w, b, dy, ref, flush, warmup, reps, nbytes):
    """Times Kiln with each candidate; returns [(config, GB/s or error)]."""
    module, coop_module = kiln_module()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    M, N = x.shape
    cands, which = tune_candidates(mode, M, N, sms)
    if TUNE_KEYS:
        cands = [c for c in cands if TUNE_KEYS & set(c)]
    results = []
    for cfg in cands:
        fns = ours_column(module, coop_module,
                          **({"tune_fwd": cfg} if which == "fwd" else {"tune_bwd": cfg}))
        try:
            ok, errs = check_column(fns, mode, x, w, b, dy, ref)
            if not ok:
                results.append((cfg, "WRONG " + json.dumps(errs)))
                continue
            fn = (lambda: fns[0](x, w, b)) if mode == "fwd" else (lambda: fns[1](x, w, b, dy))
            ms = time_it(fn, flush, warmup, reps, max_s=10)
            results.append((cfg, nbytes * 1e-9 / (ms * 1e-3)))
        except Exception as e:  # noqa: BLE001
            results.append((cfg, f"{type(e).__name__}: {str(e)[:200]}"))
    return results


def shape_fits(M, N, dtype, mode):
    es = torch.tensor([], dtype=dtype).element_size()
    x = M * N * es
    # x, y, dy, dx, the reference's y and dx, autograd copies, plus 1 GB of slack
    # (65536 x 65536 fp16 fwd+bwd ran out of memory at 7 |x|).
    need = x * (4 if mode == "fwd" else 10) + (1 << 30)
    free, _ = torch.cuda.mem_get_info()
    return need <= free, need


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="bench-out")
    ap.add_argument("--tag", default="", help="suffix of the JSON file name")
    ap.add_argument("--ext", default=os.path.join(ROOT, ".ext"))
    ap.add_argument("--dtype", default="fp16,bf16,fp32")
    ap.add_argument("--mode", default="fwd,fwdbwd")
    ap.add_argument("--M", default=",".join(map(str, ALL_M)))
    ap.add_argument("--N", default=None, help="default: 512 to 262144 (--quick: 5 of them)")
    ap.add_argument("--columns", default="kiln,tutorial,torch,compiled,flash")
    ap.add_argument("--ours-under-triton", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="fewer repetitions, N in {1024, 4096, 16384, 65536, 262144}")
    ap.add_argument("--max-seconds", type=float, default=450,
                    help="start no new shape after this many seconds")
    ap.add_argument("--plot-only", action="store_true",
                    help="draw the PNGs from the JSON in --out (no GPU needed)")
    ap.add_argument("--merge", nargs="+", default=[],
                    help="with --plot-only: JSON files of shards (device calls) to merge into "
                         "--out's JSON first")
    ap.add_argument("--tune", action="store_true",
                    help="also time Kiln with launch parameters around the heuristic's "
                         "(fwd mode: forward parameters; fwdbwd: backward ones)")
    ap.add_argument("--tune-keys", default="",
                    help="with --tune: only the candidates with one of these keys "
                         "(comma-separated, e.g. coop,chunk)")
    ap.add_argument("--host-time", action="store_true",
                    help="time from the host's call (no GPU sleep queued first): small "
                         "shapes then include the launch path's overhead")
    ap.add_argument("--flush", default="write", choices=("write", "read"),
                    help="how L2 is evicted before each timed call (see the method above)")
    ap.add_argument("--reps", default=None,
                    help="WARMUP,REPS (default 5,25; --quick 2,5)")
    a = ap.parse_args()
    for opt, value, allowed in (("--mode", a.mode, ("fwd", "fwdbwd")),
                                ("--dtype", a.dtype, tuple(DTYPES)),
                                ("--columns", a.columns, tuple(COLUMNS))):
        bad = [v for v in value.split(",") if v not in allowed]
        if bad:
            ap.error(f"{opt} {value}: unknown {', '.join(bad)} (expected a comma-separated "
                     f"list of {', '.join(allowed)})")
    global SLEEP_CYCLES, TUNE_KEYS
    TUNE_KEYS = {k for k in a.tune_keys.split(",") if k}
    if a.host_time:
        SLEEP_CYCLES = 0
    os.makedirs(a.out, exist_ok=True)
    jpath = os.path.join(a.out, f"layernorm_best{('-' + a.tag) if a.tag else ''}.json")
    rows = json.load(open(jpath)) if os.path.exists(jpath) else []
    if a.plot_only:
        merged = {(r["mode"], r["dtype"], r["M"], r["N"]): r for r in rows}
        for path in a.merge:
            for r in json.load(open(path)):
                merged[(r["mode"], r["dtype"], r["M"], r["N"])] = r
        rows = sorted(merged.values(), key=lambda r: (r["mode"], r["dtype"], r["M"], r["N"]))
        with open(jpath, "w") as f:
            json.dump(rows, f, indent=1)
        plot(rows, a.out)
        print_table(rows)
        return 0

    if torch is None:
        print(f"error: {_import_error}; only --plot-only runs without torch", file=sys.stderr)
        return 2
    start = time.time()
    dtypes = a.dtype.split(",")
    modes = a.mode.split(",")
    Ms = [int(v) for v in a.M.split(",")]
    Ns = [int(v) for v in a.N.split(",")] if a.N else ALL_N
    if a.quick and not a.N:
        Ns = [n for n in Ns if n in (1024, 4096, 16384, 65536, 262144)]
    warmup, reps = (2, 5) if a.quick else (5, 25)
    if a.reps:
        warmup, reps = (int(v) for v in a.reps.split(","))
    cols = a.columns.split(",") + (["ours_triton"] if a.ours_under_triton else [])
    columns = {}
    for c in cols:
        try:
            columns[c] = FACTORIES[c](a)
            log(f"column {c}: ready")
        except Skip as e:
            log(f"column {c}: skipped ({e})")
        except Exception as e:  # noqa: BLE001
            log(f"column {c}: skipped ({type(e).__name__}: {e})")
    props = torch.cuda.get_device_properties(0)
    log(f"device: {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}")
    flush = Flush(a.flush)
    log(f"L2 flush: {a.flush}")

    def key(r):
        return (r["mode"], r["dtype"], r["M"], r["N"])
    done = {}
    for mode in modes:
        for dt in dtypes:
            for M in Ms:
                for N in Ns:
                    if time.time() - start > a.max_seconds:
                        log(f"--max-seconds {a.max_seconds} reached: stopping before "
                            f"{mode} {dt} {M}x{N}")
                        return finish(rows, done, jpath, a.out, key)
                    row = run_shape(columns, mode, dt, M, N, flush, warmup, reps, a.tune)
                    row["flush"] = a.flush
                    torch.cuda.empty_cache()  # the shape's tensors died with run_shape
                    done[key(row)] = row
                    save(rows, done, jpath, key)
    return finish(rows, done, jpath, a.out, key)


def run_shape(columns, mode, dt, M, N, flush, warmup, reps, tune=False):
    dtype = getattr(torch, DTYPES[dt])
    row = {"mode": mode, "dtype": dt, "M": M, "N": N, "gbps": {}, "ms": {}, "err": {},
           "skipped": {}}
    fits, need = shape_fits(M, N, dtype, mode)
    if not fits:
        row["skipped"]["all"] = f"needs ~{need / 2**30:.1f} GiB"
        log(f"{mode} {dt} {M}x{N}: skipped (needs ~{need / 2**30:.1f} GiB)")
        return row
    torch.manual_seed(0)
    x = -2.3 + 0.5 * torch.randn((M, N), device="cuda", dtype=dtype)
    w = torch.rand((N,), device="cuda", dtype=dtype)
    b = torch.rand((N,), device="cuda", dtype=dtype)
    dy = 0.1 * torch.randn((M, N), device="cuda", dtype=dtype) if mode == "fwdbwd" else None
    ref = reference_fp32(x, w, b, dy)
    es = x.element_size()
    nbytes = 2 * x.numel() * es + 2 * N * es + (3 * x.numel() * es if mode == "fwdbwd" else 0)
    for name, fns in columns.items():
        try:
            ok, errs = (True, {}) if name in CEILINGS else check_column(
                fns, mode, x, w, b, dy, ref)
            row["err"][name] = errs
            if not ok:
                text = ", ".join(f"{k} {v:.3g}" for k, v in errs.items())
                if name == "kiln" or not loose_enough(errs, dtype):
                    row["skipped"][name] = "WRONG: " + text
                    log(f"{mode} {dt} {M}x{N} {name}: {row['skipped'][name]}")
                    continue
                row.setdefault("loose", {})[name] = text
                log(f"{mode} {dt} {M}x{N} {name}: outside tolerance, timed anyway ({text})")
            fn = (lambda: fns[0](x, w, b)) if mode == "fwd" else (lambda: fns[1](x, w, b, dy))
            ms = time_it(fn, flush, warmup, reps, max_s=20)
            row["ms"][name] = ms
            row["gbps"][name] = nbytes * 1e-9 / (ms * 1e-3)
        except Skip as e:
            row["skipped"][name] = str(e)
        except torch.cuda.OutOfMemoryError as e:
            row["skipped"][name] = f"out of memory: {str(e)[:80]}"
            torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001
            row["skipped"][name] = f"{type(e).__name__}: {str(e)[:300]}"
        torch.cuda.synchronize()
    if tune and "kiln" in columns:
        try:
            row["tune"] = [[cfg, v] for cfg, v in
                           run_tune(mode, x, w, b, dy, ref, flush, warmup, reps, nbytes)]
            good = [(v, cfg) for cfg, v in row["tune"] if isinstance(v, float)]
            if good:
                best = max(good, key=lambda t: t[0])
                log(f"{mode} {dt} {M}x{N} tune: best {best[1]} {best[0]:.1f} GB/s; " +
                    ", ".join(f"{json.dumps(c)}={v:.0f}" if isinstance(v, float)
                              else f"{json.dumps(c)}={v[:40]}" for c, v in row["tune"]))
        except Skip as e:
            row["tune"] = str(e)
    log(f"{mode} {dt} {M}x{N}: " + "  ".join(
        f"{k} {v:7.1f} GB/s" for k, v in row["gbps"].items()) +
        "".join(f"  [{k}: {v[:60]}]" for k, v in row["skipped"].items()
                if not v.startswith("rows above")))
    return row


def save(rows, done, jpath, key):
    merged = {key(r): r for r in rows}
    merged.update(done)
    with open(jpath, "w") as f:
        json.dump(sorted(merged.values(), key=key), f, indent=1)
    return list(merged.values())


def finish(rows, done, jpath, out, key):
    allrows = save(rows, done, jpath, key)
    plot(allrows, out)
    print_table(sorted(allrows, key=key))
    log(f"wrote {jpath}")
    return 0


def print_table(rows):
    """Markdown table: GB/s per column, and Kiln's share of the best other column."""
    print("| mode | dtype | M | N | " + " | ".join(COLUMNS) + " | kiln / best other |")
    print("|" + " --- |" * (len(COLUMNS) + 5))
    for r in rows:
        g = r.get("gbps", {})
        others = [v for k, v in g.items() if k != "kiln" and k not in CEILINGS]
        ratio = (f"{g['kiln'] / max(others):.2f}" if "kiln" in g and others else "")
        cells = [f"{g[c]:.0f}" if c in g else "-" for c in COLUMNS]
        print(f"| {r['mode']} | {r['dtype']} | {r['M']} | {r['N']} | " + " | ".join(cells) +
              f" | {ratio} |")


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        log(f"no plots: matplotlib does not load ({e})")
        return
    groups = {}
    for r in rows:
        groups.setdefault((r["mode"], r["dtype"]), []).append(r)
    for (mode, dt), rs in sorted(groups.items()):
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
        for ax, M in zip(axes, ALL_M):
            sub = sorted((r for r in rs if r["M"] == M), key=lambda r: r["N"])
            for c in COLUMNS:
                pts = [(r["N"], r["gbps"][c]) for r in sub if c in r["gbps"]]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=c)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N")
            ax.set_title(f"M = {M}")
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("GB/s")
        axes[0].legend()
        fig.suptitle(f"LayerNorm {mode} {dt} (tutorial byte formulas)")
        fig.tight_layout()
        path = os.path.join(out, f"layernorm_{mode}_{dt}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        log(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
