"""What the library benchmarks (liger_bench.py, lightllm_bench.py, vllm_bench.py,
fla_bench.py) share: time one operator per row under whichever `triton` is active, write the
rows as JSON, compare a Triton run with a Kiln run, and load a library's kernel files without
its package __init__s.

A row: {"op", "backend" ("triton" or "kiln"), "checksum" and "magnitude" (sum and sum of
absolute values of the first output's finite elements, so that the two runs can be checked
for agreement), "nonfinite" (how many of its elements are inf or NaN, when any: masked
logits are -inf by design), "fwd_us" and, for ops with a backward,
"full_us" (median CUDA-event time of one call), "kernels" ({name: [mean device us, launches
per call]} from torch.profiler), "tuning" ({kernel: {"best": config, "timings": {config: ms}}}
of each autotuner that tuned during the op: per-config times under both compilers)} or
{"op", "backend", "error"} when the op failed; a later
mode that failed after the first ran leaves its times and "<mode>_error" (e.g. "full_error").
Only compare() and bare_packages() run without torch.
"""
import argparse
import importlib.machinery
import json
import math
import os
import statistics
import sys
import types


def tensors_of(out):
    """The outputs of a call that autograd tracks (flattened)."""
    if isinstance(out, (tuple, list)):
        return [o for x in out for o in tensors_of(x)]
    return [out] if hasattr(out, "requires_grad") and out.requires_grad else []


def measure(torch, call, leaves, mode, reps, warmup, flush):
    """Median microseconds of `call` over `reps` after `warmup`, L2 flushed (`flush` zeroed)
    before each, CUDA events around each. mode "fwd": under torch.no_grad(); "full": forward
    and backward with fixed random upstream gradients. Returns (median, once) where once()
    runs one such call (for kernel_times)."""
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
    """{kernel name: [mean device us, launches per call]} over `calls` back-to-back calls."""
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


def config_text(config):
    """A config as both runs print it: its meta-parameters, then warps and stages."""
    kw = ",".join(f"{k}={v}" for k, v in sorted(getattr(config, "kwargs", {}).items()))
    return f"{kw} w{getattr(config, 'num_warps', '?')} s{getattr(config, 'num_stages', '?')}"


def autotuners():
    """Every autotuner (an object with `configs_timings`) a loaded module holds, as
    decorators stack them (a heuristics wrapper's .fn is the autotuner)."""
    def attr(value, name):  # torch's lazy namespaces raise RuntimeError, not AttributeError
        try:
            return getattr(value, name, None)
        except Exception:
            return None
    found = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("torch", "triton", "kiln", "numpy"):
            continue
        for value in list((attr(module, "__dict__") or {}).values()):
            depth = 0
            while value is not None and depth < 4:
                if "configs_timings" in (attr(value, "__dict__") or {}):
                    found[id(value)] = value
                value, depth = attr(value, "fn"), depth + 1
    return list(found.values())


def kernel_name(tuner):
    """The name of the @triton.jit function an autotuner tunes."""
    fn = getattr(tuner, "base_fn", None) or tuner.fn
    while hasattr(fn, "fn") and not hasattr(fn, "__name__"):
        fn = fn.fn
    return getattr(fn, "__name__", None) or getattr(tuner, "__name__", "kernel")


def tuning_since(seen):
    """{kernel: {"best", "timings"}} of the autotuners whose timings changed since `seen`
    (id of each one's last timings dict, updated here)."""
    out = {}
    for tuner in autotuners():
        timings = tuner.configs_timings
        if not timings or seen.get(id(tuner)) is timings:
            continue
        seen[id(tuner)] = timings
        ms = {config_text(c): float(t[0] if isinstance(t, (list, tuple)) else t)
              for c, t in timings.items()}
        best = getattr(tuner, "best_config", None)
        out[kernel_name(tuner)] = {"best": config_text(best) if best is not None else None, "timings": ms}
    return out


def run_ops(torch, triton, table, args, modes, dev="cuda"):
    """Times each op of `table` (name -> maker; a maker returns (call, leaves), call() runs
    the op once and returns its output) named by args.only (all by default) in each of
    `modes` ("fwd", "full"), profiles the last mode's call, prints each row as a JSON line
    and writes the rows so far to args.out after each op."""
    names = args.only.split(",") if args.only else list(table)
    flush = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device=dev)  # 256 MB > L2
    backend = "kiln" if getattr(triton, "__kiln__", False) else "triton"
    rows = []
    seen = {}
    tuning_since(seen)  # what tuned before the first op is no op's
    for name in names:
        torch.manual_seed(0)
        row = {"op": name, "backend": backend}
        try:
            call, leaves = table[name]()
            with torch.no_grad():
                first = tensors_of(call()) or [call()]
            out0 = first[0] if not isinstance(first[0], (tuple, list)) else first[0][0]
            if getattr(args, "save_outputs", None):  # for an elementwise comparison
                os.makedirs(args.save_outputs, exist_ok=True)
                torch.save(out0.detach().cpu(), os.path.join(args.save_outputs, name + ".pt"))
            x = out0.float()
            finite = torch.isfinite(x)
            x = torch.where(finite, x, torch.zeros_like(x))
            row["checksum"] = float(x.sum().item())
            row["magnitude"] = float(x.abs().sum().item())
            nonfinite = int(finite.numel() - finite.sum().item())
            if nonfinite:
                row["nonfinite"] = nonfinite
            once = None
            for i, mode in enumerate(modes):
                try:
                    row[mode + "_us"], once = measure(torch, call, leaves, mode, args.reps,
                                                      args.warmup, flush)
                except Exception as e:
                    if i == 0:
                        raise
                    # A later mode's failure (a backward the library refuses) keeps the
                    # earlier modes' times; the profile takes the last mode that ran.
                    row[mode + "_error"] = f"{type(e).__name__}: {str(e)[:300]}"
                    break
            if getattr(args, "save_outputs", None) and row.get("full_us") is not None:
                # the last timed backward's gradients (fixed upstream gradients)
                for i, x in enumerate(leaves):
                    if x.grad is not None:
                        torch.save(x.grad.detach().cpu(),
                                   os.path.join(args.save_outputs, f"{name}.grad{i}.pt"))
            if args.prof_reps:
                row["kernels"] = kernel_times(torch, once, leaves, args.prof_reps)
            tuned = tuning_since(seen)
            if tuned:
                row["tuning"] = tuned
        except Exception as e:  # one op's failure must not hide the others
            row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.out:  # after each op: a run cut short by a timeout keeps what it timed
            with open(args.out, "w") as f:
                json.dump(rows, f, indent=1)
    return rows


def tuner_named(kernel):
    """The autotuner of the @triton.jit function named `kernel` among the loaded modules."""
    return next((t for t in autotuners() if kernel_name(t) == kernel), None)


def sweep_configs(torch, table, args, kernels, dev="cuda"):
    """For each op of args.only and each kernel in `kernels` its op launches: every config
    of the kernel's autotune list forced in turn (the list narrowed to it, the tuner's
    cache cleared), the kernel's device time per call from torch.profiler. Rows
    {"op", "kernel", "config", "us"} (or "error"), printed and written to args.out: the
    compilers' code config by config, apart from the autotuners' choices and timing."""
    rows = []
    wanted = [w for w in (getattr(args, "sweep_configs", None) or "").split(",") if w]

    def chosen(configs):  # --sweep-configs: only configs whose text holds one of the words
        return [c for c in configs if not wanted or any(w in config_text(c) for w in wanted)]
    for name in (args.only.split(",") if args.only else list(table)):
        torch.manual_seed(0)
        call, leaves = table[name]()
        narrowed = {}
        if wanted:  # before the first call too, so that a profiler sees only these configs
            for kernel in kernels:
                tuner = tuner_named(kernel)
                if tuner is not None:
                    narrowed[kernel] = list(tuner.configs)
                    tuner.configs = chosen(tuner.configs)
        with torch.no_grad():
            call()  # loads the modules, tunes once
        for kernel in kernels:
            tuner = tuner_named(kernel)
            if tuner is None:
                continue
            configs = narrowed.get(kernel) or list(tuner.configs)
            for cfg in chosen(configs):
                row = {"op": name, "kernel": kernel, "config": config_text(cfg)}
                tuner.configs, tuner.cache = [cfg], {}
                try:
                    def once():
                        with torch.no_grad():
                            return call()
                    once()
                    found = kernel_times(torch, once, leaves, max(args.prof_reps, 1))
                    row["us"] = found[kernel][0]
                except Exception as e:  # a config that fails is a result
                    row["error"] = f"{type(e).__name__}: {str(e)[:200]}"
                rows.append(row)
                print(json.dumps(row), flush=True)
            tuner.configs, tuner.cache = configs, {}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


def compare_sweeps(tri_rows, kiln_rows):
    """Kernel time config by config (us): Triton, Kiln, ratio, and the geometric mean."""
    tri = {(r["op"], r["kernel"], r["config"]): r for r in tri_rows}
    logs = []
    print(f"{'kernel / config':60} {'Triton':>8} {'Kiln':>8} {'ratio':>6}")
    for r in kiln_rows:
        t = tri.get((r["op"], r["kernel"], r["config"]), {})
        tu, ku = t.get("us"), r.get("us")
        ratio = f"{ku / tu:6.3f}" if tu and ku else "     -"
        if tu and ku:
            logs.append(math.log(ku / tu))
        label = f"{r['kernel'][:40]} {r['config']}"
        print(f"{label[:60]:60} {tu if tu else '-':>8} {ku if ku else r.get('error', '-')[:30]:>8} {ratio}")
    if logs:
        print(f"geomean per config: {math.exp(statistics.mean(logs)):.3f} over {len(logs)} configs")


def checksums_agree(tri, kiln):
    """Whether two runs' first outputs agree: as many non-finite elements, and their sums
    within 1 %, or (a sum that cancels, summed in another order: an fp16 reduction) within
    1e-5 of the sum of magnitudes."""
    a, b = tri.get("checksum"), kiln.get("checksum")
    if a is None or b is None or tri.get("nonfinite", 0) != kiln.get("nonfinite", 0):
        return False
    bound = 1e-2 * max(1.0, abs(a))
    if tri.get("magnitude") is not None:
        bound = max(bound, 1e-5 * tri["magnitude"])
    return abs(a - b) <= bound


def compare(pairs):
    """Each pair: a Triton JSON and a Kiln JSON from the same call; ratios are Kiln / Triton
    time (below 1: Kiln faster), the geometric mean over the pairs per op. A time absent
    from either row (an op without a backward, a failed op) prints as '-'."""
    by_op = {}
    for tri_path, kiln_path in zip(pairs[::2], pairs[1::2]):
        with open(tri_path) as f:
            tri = {r["op"]: r for r in json.load(f)}
        with open(kiln_path) as f:
            for r in json.load(f):
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
            if not checksums_agree(t, k):
                agree = False
        err = next((r.get(key) for pair in runs for r in pair
                    for key in ("error", "full_error") if r.get(key)), "")
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
    compare_tuning(by_op)


def compare_tuning(by_op):
    """The autotuners' own times of each config under both compilers (first pair of each
    op): kernel speed config by config, apart from which config either tuner picked
    (T / K mark the picks). Kiln times with a shorter budget (autotuner.py), so a single
    config's ratio is noisier than the table's."""
    logs, lines = [], []
    for op, runs in by_op.items():
        t, k = runs[0]
        for kname, ktune in sorted(k.get("tuning", {}).items()):
            ttune = t.get("tuning", {}).get(kname)
            if not ttune:
                continue
            lines.append(f"{op} / {kname}")
            for cfg, kms in ktune["timings"].items():
                tms = ttune["timings"].get(cfg)
                if tms is None:
                    continue
                mark = ("T" if cfg == ttune["best"] else " ") + ("K" if cfg == ktune["best"] else " ")
                finite = all(math.isfinite(x) and x > 0 for x in (tms, kms))
                if finite:
                    logs.append(math.log(kms / tms))
                ratio = f"{kms / tms:6.3f}" if finite else "     -"
                lines.append(f"    {cfg[:48]:48} {mark} {tms * 1e3:9.1f} {kms * 1e3:9.1f} {ratio}")
    if lines:
        print("\nautotuning, each config (us): Triton, Kiln, ratio; T / K: each tuner's pick")
        print("\n".join(lines))
        if logs:
            print(f"geomean per config: {math.exp(statistics.mean(logs)):.3f} over {len(logs)} configs")


def bare_packages(root, top, skip=()):
    """Registers package `top` and every directory below it in `root` as a package without
    running any __init__.py (a module with __path__ and no __file__: Python finds its
    submodules there), except the names in `skip` (stand-ins the caller registers). Returns
    the package names; an absent tree is FileNotFoundError."""
    base = os.path.join(root, top)
    if not os.path.isdir(base):
        raise FileNotFoundError(base)
    names = []
    for d, subdirs, _ in os.walk(base):  # top-down: a parent is registered before its children
        subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
        rel = os.path.relpath(d, base)
        name = top if rel == "." else top + "." + rel.replace(os.sep, ".")
        if name in skip:
            continue
        mod = sys.modules.get(name)
        if getattr(mod, "__path__", None) != [d] or getattr(mod, "__file__", None):
            mod = types.ModuleType(name)
            mod.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
            mod.__spec__.submodule_search_locations = [d]
            mod.__path__, mod.__package__ = [d], name
            sys.modules[name] = mod
            parent, _, child = name.rpartition(".")
            if parent:
                setattr(sys.modules[parent], child, mod)
        names.append(name)
    return names


def main(doc, run, extra=None):
    """The benchmarks' command line: time (run(args)) or --compare pairs of JSON files;
    extra(parser) adds a benchmark's own options."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    if extra:
        extra(ap)
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--prof-reps", type=int, default=10,
                    help="calls under torch.profiler (0: none, e.g. under ncu)")
    ap.add_argument("--save-outputs", metavar="DIR",
                    help="torch.save each op's first output as DIR/OP.pt (and, when the "
                         "backward is timed, each input's gradient as DIR/OP.gradI.pt)")
    ap.add_argument("--compare", nargs="+", metavar="JSON",
                    help="Triton / Kiln JSON files in pairs")
    args = ap.parse_args()
    if args.compare:
        if len(args.compare) % 2:
            ap.error("--compare takes Triton / Kiln files in pairs")
        with open(args.compare[0]) as f:
            first = json.load(f)
        if first and "kernel" in first[0] and "config" in first[0]:  # sweep_configs rows
            with open(args.compare[1]) as f:
                compare_sweeps(first, json.load(f))
        else:
            compare(args.compare)
    else:
        run(args)
