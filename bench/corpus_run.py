#!/usr/bin/env python3
"""Run the kernel corpus under Triton and Kiln: correctness and timing.

For every (case, shape, dtype) of bench/corpus/cases.py: builds the inputs
with torch on the GPU, computes the PyTorch reference, then for Triton (the
kernel file imported as a module, `kernel[grid](...)`) and for Kiln (the
same file through the `kiln` Python package, `kiln.jit(path).kernel[grid]`):
poisons the outputs (NaN for floats, 0xFF bytes for ints; outputs that are
accumulated into are zeroed), launches once, compares with the reference
(per-case tolerances), then times both launches: CUDA events around each
launch, warm-up runs first, the L2 flushed before every timed launch by
writing a 256 MB buffer, the median of the repetitions. The repetitions run
in 10 rounds that alternate which implementation goes first (a drift of the
GPU's state during the measurement falls on both alike). Both use the same
grid, constexprs and num_warps.

    python3 bench/corpus_run.py [--filter TEXT] [--quick] [--json out.json]
        [--kiln-only | --triton-only] [--no-timing] [--warmup N] [--reps N]
        [--instance-timeout S] [--max-seconds S] [--list]

Kiln's library is found through the environment variable KILN_LIBRARY (see
python/kiln). Prints one line per instance as it finishes, then a table;
exits 1 if any instance is wrong or failed. A failing instance does not stop
the others: its error text is recorded. The instances run in a worker
process that this one supervises; a worker that crashes, loses its CUDA
context (illegal address) or finishes no instance for --instance-timeout
seconds (a hung kernel) is replaced by a new one that goes on with the next
instance.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

import cases  # noqa: E402
from corpus_model import TORCH_DTYPE, Ctx, shape_text  # noqa: E402

IMPLS = ("triton", "kiln")
SEED = 20261123
L2_FLUSH_BYTES = 256 << 20
ROUNDS = 10  # timing rounds, alternating which implementation goes first

# ------------------------------------------------------------ pure parts
# (no torch: tested by bench/test_corpus.py)


def geomean(values):
    vals = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def gbps(nbytes, us):
    return nbytes / (us * 1e3) if us else None


def impl_ok(r):
    """True / False / None (did not run) for one implementation's result."""
    if r is None:
        return None
    if r.get("error"):
        return False
    return bool(r.get("correct"))


def verdict(rec, impls):
    """'ok', or what went wrong: 'WRONG kiln', 'ERROR triton', ..."""
    bad = []
    for impl in impls:
        r = rec.get(impl)
        if r is None:
            bad.append(f"ERROR {impl}")
        elif r.get("error"):
            bad.append(f"ERROR {impl}")
        elif not r.get("correct"):
            bad.append(f"WRONG {impl}")
    return ", ".join(bad) if bad else "ok"


def finish_record(rec):
    """Fills GB/s and the Kiln/Triton time ratio from the measured times."""
    for impl in IMPLS:
        r = rec.get(impl)
        if r and r.get("us"):
            r["gbps"] = gbps(rec["bytes"], r["us"])
    t, k = rec.get("triton") or {}, rec.get("kiln") or {}
    rec["ratio"] = (k["us"] / t["us"]) if (t.get("us") and k.get("us")
                                             and impl_ok(t) and impl_ok(k)) else None
    return rec


def _num(v, spec):
    return "-" if v is None else format(v, spec)


TABLE_HEAD = ("kernel", "shape", "dtype", "Triton us", "Kiln us", "Kiln/Triton",
              "Triton GB/s", "Kiln GB/s", "correct")


def table_rows(results, impls):
    rows = []
    for rec in results:
        t, k = rec.get("triton") or {}, rec.get("kiln") or {}
        rows.append((rec["case"], f"{rec['shape']} {rec['dims']}", rec["dtype"],
                     _num(t.get("us"), ".2f"), _num(k.get("us"), ".2f"),
                     _num(rec.get("ratio"), ".2f"), _num(t.get("gbps"), ".0f"),
                     _num(k.get("gbps"), ".0f"), verdict(rec, impls)))
    return rows


def format_table(results, impls):
    """Fixed-width text table, one line per instance."""
    rows = [TABLE_HEAD] + table_rows(results, impls)
    widths = [max(len(r[i]) for r in rows) for i in range(len(TABLE_HEAD))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i < 3 or i == 8 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_markdown(results, impls):
    lines = ["| " + " | ".join(TABLE_HEAD) + " |", "|" + "---|" * len(TABLE_HEAD)]
    lines += ["| " + " | ".join(r) + " |" for r in table_rows(results, impls)]
    return "\n".join(lines)


def summarize(results, impls):
    ratios = [r["ratio"] for r in results if r.get("ratio")]
    wrong = [r["id"] for r in results if verdict(r, impls) != "ok"]
    return {"instances": len(results), "correct": len(results) - len(wrong),
            "wrong": wrong, "compared": len(ratios), "geomean_kiln_over_triton": geomean(ratios),
            "min_ratio": min(ratios) if ratios else None,
            "max_ratio": max(ratios) if ratios else None}


def summary_text(summary):
    s = summary
    text = f"{s['correct']} of {s['instances']} instances correct"
    if s["wrong"]:
        text += f"; wrong or failed: {', '.join(s['wrong'])}"
    if s["geomean_kiln_over_triton"]:
        text += (f"\nKiln time / Triton time: geometric mean {s['geomean_kiln_over_triton']:.3f} "
                 f"over {s['compared']} instances (range {s['min_ratio']:.2f}-"
                 f"{s['max_ratio']:.2f}; below 1: Kiln faster)")
    return text


def base_record(inst, sms):
    return {"id": inst.id, "case": inst.case.name, "kernel": inst.case.kernel,
            "file": inst.case.file, "shape": inst.shape.label, "dims": shape_text(inst.shape),
            "dtype": inst.dtype, "grid": list(inst.grid(sms)), "num_warps": inst.num_warps(),
            "constexprs": inst.constexprs(), "signature": ",".join(inst.signature()),
            "bytes": inst.bytes()}


def make_document(results, impls, meta):
    return {"kind": "kiln-corpus", "version": 1, **meta, "impls": list(impls),
            "summary": summarize(results, impls), "results": results}


def launch_args(inst, tensors):
    """Positional arguments (pointers as tensors, scalars) and keyword constexprs."""
    scalars = inst.scalars()
    args = [tensors[p.name] if p.kind == "ptr" else scalars[p.name]
            for p in inst.case.params if p.kind != "const"]
    return args, inst.constexprs()


# ------------------------------------------------------------ GPU parts


class ContextLost(Exception):
    """The CUDA context is unusable after an error: continue in a new process."""


class Runner:
    """Runs instances on `device` ("cuda"; "cpu" only builds inputs and
    references, for bench/test_corpus_torch.py)."""

    def __init__(self, torch, impls, warmup, reps, device="cuda"):
        self.torch, self.impls, self.warmup, self.reps = torch, impls, warmup, reps
        self.device = device
        if device == "cuda":
            self.flush = torch.empty(L2_FLUSH_BYTES, dtype=torch.int8, device="cuda")
            self.sms = torch.cuda.get_device_properties(0).multi_processor_count
        else:
            self.flush, self.sms = None, 132
        self.modules = {}
        self.kiln, self.kiln_error = None, None
        if "kiln" in impls:
            try:
                sys.path.insert(0, os.path.join(REPO, "python"))
                import kiln
                self.kiln = kiln
            except Exception as e:  # reported on every Kiln instance
                self.kiln_error = f"cannot import kiln: {type(e).__name__}: {e}"

    def kernel(self, impl, inst):
        key = (impl, inst.case.file)
        if key not in self.modules:
            if impl == "triton":
                import importlib.util
                name = "corpus_" + os.path.splitext(inst.case.file)[0]
                spec = importlib.util.spec_from_file_location(name, inst.case.path)
                mod = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(mod)
            else:
                if self.kiln is None:
                    raise RuntimeError(self.kiln_error)
                mod = self.kiln.jit(inst.case.path)
            self.modules[key] = mod
        return getattr(self.modules[key], inst.case.kernel)

    def inputs(self, ctx, inst):
        self.torch.manual_seed(SEED)
        return inst.case.make(ctx, inst.shape)

    def prepare_outputs(self, inst, t):
        for name, how in inst.case.outputs.items():
            x = t[name]
            if how == "zero":
                x.zero_()
            elif how == "poison":
                x.fill_(float("nan") if x.dtype.is_floating_point else -1)

    def check(self, inst, t, ref):
        torch = self.torch
        report, ok = {}, True
        names = {v: k for k, v in TORCH_DTYPE.items()}
        for name, exp in ref.items():
            out = t[name]
            atol, rtol = inst.tolerance(name, names.get(str(out.dtype).split(".")[-1]))
            if tuple(out.shape) != tuple(exp.shape):
                report[name] = f"shape {tuple(out.shape)} != reference {tuple(exp.shape)}"
                ok = False
                continue
            o, e = out.double(), exp.double()
            close = torch.isclose(o, e, rtol=rtol, atol=atol)
            bad = int((~close).sum().item())
            diff = (o - e).abs().nan_to_num(nan=float("inf"))
            entry = {"max_abs_err": float(diff.max().item()) if diff.numel() else 0.0,
                     "mismatches": bad, "numel": o.numel(), "atol": atol, "rtol": rtol}
            if bad:
                i = int((~close).flatten().nonzero()[0].item())
                entry["first_bad"] = {"index": i, "got": float(o.flatten()[i].item()),
                                      "expected": float(e.flatten()[i].item())}
                ok = False
            report[name] = entry
        return ok, report

    def samples(self, fn, n):
        """n timed launches, the L2 flushed before each (microseconds)."""
        torch = self.torch
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
        for s, e in zip(starts, ends):
            self.flush.zero_()
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        return [1e3 * s.elapsed_time(e) for s, e in zip(starts, ends)]

    def time(self, launches):
        """Median time of each implementation's launch. The repetitions run
        in rounds that alternate which implementation goes first, so a drift
        of the GPU's state (clocks, queue depth) over the measurement falls
        on both alike instead of on whichever ran second."""
        for fn in launches.values():
            for _ in range(self.warmup):
                fn()
        self.torch.cuda.synchronize()
        rounds = min(ROUNDS, self.reps)
        per_round = -(-self.reps // rounds)
        got = {impl: [] for impl in launches}
        order = list(launches)
        for k in range(rounds):
            for impl in (order if k % 2 == 0 else order[::-1]):
                got[impl] += self.samples(launches[impl], per_round)
        return {impl: statistics.median(v) for impl, v in got.items()}

    def time_all(self, rec, launches):
        try:
            for impl, us in self.time(launches).items():
                rec[impl]["us"] = us
        except Exception as e:
            for impl in launches:
                rec[impl]["error"] = f"timing: {type(e).__name__}: {e}"
            if not self.context_alive():
                raise ContextLost(str(e)) from e

    def reference(self, inst):
        """(inputs, reference outputs) of an instance, from the fixed seed."""
        ctx = Ctx(self.torch, self.device, inst.dtype)
        t = self.inputs(ctx, inst)
        return t, inst.case.ref(ctx, inst.shape, t)

    def context_alive(self):
        if self.device != "cuda":
            return True
        try:
            self.torch.cuda.synchronize()
            return self.torch.zeros(1, device="cuda").add_(1).item() == 1
        except Exception:
            return False

    def run_impl(self, impl, inst, ref):
        """Compiles, launches once on poisoned outputs and checks: the
        result record and the launch (None when it failed)."""
        ctx = Ctx(self.torch, self.device, inst.dtype)
        r, launch = {}, None
        try:
            kern = self.kernel(impl, inst)
            t = self.inputs(ctx, inst)
            args, consts = launch_args(inst, t)
            grid, nw = inst.grid(self.sms), inst.num_warps()

            def launch():
                kern[grid](*args, **consts, num_warps=nw)

            self.prepare_outputs(inst, t)
            launch()
            if self.device == "cuda":
                self.torch.cuda.synchronize()
            r["correct"], r["check"] = self.check(inst, t, ref)
        except Exception as e:
            r["error"] = f"{type(e).__name__}: {e}"
            r["traceback"] = traceback.format_exc(limit=4)[-3000:]
            launch = None
            if not self.context_alive():
                raise ContextLost(r["error"]) from e
        return r, launch

    def run(self, inst, timing=True):
        rec = base_record(inst, self.sms)
        try:
            t, ref = self.reference(inst)
            del t
        except Exception as e:
            err = {"error": f"reference: {type(e).__name__}: {e}",
                   "traceback": traceback.format_exc(limit=4)[-3000:]}
            for impl in self.impls:
                rec[impl] = dict(err)
            return finish_record(rec)
        try:
            launches = {}
            for impl in self.impls:
                rec[impl], launch = self.run_impl(impl, inst, ref)
                if launch is not None:
                    launches[impl] = launch
            if timing and launches:
                self.time_all(rec, launches)
        except ContextLost as e:
            rec.setdefault(impl, {"error": str(e)})
            rec["context_lost"] = True
        finally:
            del ref
        return finish_record(rec)


def device_meta(torch, runner, impls):
    p = torch.cuda.get_device_properties(0)
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "device": {"name": p.name, "compute_capability": f"{p.major}.{p.minor}",
                       "multiprocessors": p.multi_processor_count},
            "torch_version": torch.__version__, "cuda_version": torch.version.cuda,
            "method": {"timer": "torch.cuda.Event around each launch", "statistic": "median",
                       "warmup": runner.warmup, "reps": runner.reps,
                       "rounds": ROUNDS, "order": "alternating per round",
                       "l2_flush_bytes": L2_FLUSH_BYTES, "seed": SEED}}
    if "triton" in impls:
        import triton
        meta["triton_version"] = triton.__version__
    if runner.kiln is not None:
        meta["kiln_version"] = getattr(runner.kiln, "__version__", "unknown")
    return meta


def worker_argv(args, start, part):
    """The command line of a worker process running instances [start:]."""
    argv = [sys.executable, os.path.abspath(__file__), "--start", str(start),
            "--part-json", part, "--warmup", str(args.warmup), "--reps", str(args.reps)]
    if args.filter:
        argv += ["--filter", args.filter]
    if args.shard:
        argv += ["--shard", args.shard]
    for flag in ("quick", "kiln_only", "triton_only", "no_timing"):
        if getattr(args, flag):
            argv.append("--" + flag.replace("_", "-"))
    return argv


def read_part(path):
    """(meta or None, records) from a worker's JSON-lines file."""
    meta, records = None, []
    try:
        with open(path) as f:
            for line in f:
                if not line.endswith("\n"):
                    break  # being written
                item = json.loads(line)
                if "meta" in item:
                    meta = item["meta"]
                else:
                    records.append(item["record"])
    except (OSError, ValueError):
        pass
    return meta, records


def failed_record(inst, why):
    rec = base_record(inst, 0)
    rec["grid"] = None
    rec["error"] = why
    for impl in IMPLS:
        rec[impl] = {"error": why}
    return finish_record(rec)


def supervise(args, insts, impls):
    """Runs the instances in worker processes: a worker that crashes, loses
    its CUDA context or makes no progress for --instance-timeout seconds is
    killed; its current instance is recorded as failed and a new worker goes
    on with the next one. Returns (meta, records, instances not run)."""
    meta, results, n = None, [], 0
    t0 = time.monotonic()
    while n < len(insts):
        if args.max_seconds and time.monotonic() - t0 > args.max_seconds:
            break
        fd, part = tempfile.mkstemp(prefix="corpus-part-", suffix=".jsonl")
        os.close(fd)
        proc = subprocess.Popen(worker_argv(args, n, part))
        done, last = 0, time.monotonic()
        while proc.poll() is None:
            time.sleep(0.5)
            count = len(read_part(part)[1])
            if count != done:
                done, last = count, time.monotonic()
            elif time.monotonic() - last > args.instance_timeout:
                proc.kill()
                proc.wait()
                break
        wmeta, recs = read_part(part)
        os.unlink(part)
        meta = meta or wmeta
        results += recs
        n += len(recs)
        if proc.returncode == 0 and n >= len(insts):
            break
        if recs and recs[-1].get("context_lost"):
            continue  # that record holds the error; go on with the next
        if n < len(insts):
            why = (f"no progress for {args.instance_timeout} s: killed"
                   if proc.returncode in (-9, 137) else
                   f"worker process died (exit status {proc.returncode})")
            if wmeta is None and not recs and n == 0 and proc.returncode not in (-9, 137):
                return meta, results, insts[n:]  # cannot even start (no torch / GPU)
            rec = failed_record(insts[n], why)
            results.append(rec)
            print(progress_line(rec, impls), flush=True)
            n += 1
    return meta, results, insts[n:]


def work(args, insts, impls):
    """Worker: runs instances [args.start:], one JSON line each to --part-json."""
    import torch
    if not torch.cuda.is_available():
        print("corpus_run: no CUDA device", file=sys.stderr)
        return 2
    runner = Runner(torch, impls, args.warmup, args.reps)
    with open(args.part_json, "a") as out:
        out.write(json.dumps({"meta": device_meta(torch, runner, impls)}) + "\n")
        out.flush()
        for inst in insts[args.start:]:
            rec = runner.run(inst, timing=not args.no_timing)
            print(progress_line(rec, impls), flush=True)
            out.write(json.dumps({"record": rec}) + "\n")
            out.flush()
            if rec.get("context_lost"):
                return 3
    return 0


def progress_line(rec, impls):
    t, k = rec.get("triton") or {}, rec.get("kiln") or {}
    line = (f"{rec['id']:<48} triton {_num(t.get('us'), '9.2f')} us  kiln "
            f"{_num(k.get('us'), '9.2f')} us  ratio {_num(rec.get('ratio'), '5.2f')}  "
            f"{verdict(rec, impls)}")
    for impl in impls:
        r = rec.get(impl) or {}
        if r.get("error"):
            line += f"\n    {impl}: {r['error'].splitlines()[0][:300]}"
        elif r and not r.get("correct"):
            line += f"\n    {impl}: {json.dumps(r.get('check'))[:300]}"
    return line


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", help="only instances whose id (case/shape/dtype) contains this (or one of its comma-separated parts)")
    ap.add_argument("--quick", action="store_true",
                    help="first (small) shape only, 3 warm-up runs and 10 repetitions")
    ap.add_argument("--json", help="write the results here")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--kiln-only", action="store_true")
    g.add_argument("--triton-only", action="store_true")
    ap.add_argument("--no-timing", action="store_true", help="correctness only")
    ap.add_argument("--warmup", type=int, default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--list", action="store_true", help="list the instances and exit")
    ap.add_argument("--instance-timeout", type=float, default=180,
                    help="seconds without a finished instance before the worker is killed")
    ap.add_argument("--max-seconds", type=float, default=0,
                    help="start no new instance after this many seconds (0: no limit)")
    ap.add_argument("--shard", help="K/N: only every N-th instance from the K-th (1-based), "
                    "to split the corpus over several device jobs")
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--part-json", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.warmup is None:
        args.warmup = 3 if args.quick else 10
    if args.reps is None:
        args.reps = 10 if args.quick else 100
    if args.shard:
        try:
            k, n = (int(v) for v in args.shard.split("/"))
            assert 1 <= k <= n
        except (ValueError, AssertionError):
            ap.error(f"--shard {args.shard}: expected K/N with 1 <= K <= N")
    return args


def shard(insts, spec):
    """Every N-th instance from the K-th (1-based) for spec "K/N"."""
    if not spec:
        return insts
    k, n = (int(v) for v in spec.split("/"))
    return insts[k - 1::n]


def selected_impls(args):
    return ("kiln",) if args.kiln_only else ("triton",) if args.triton_only else IMPLS


def main(argv=None):
    args = parse_args(argv)
    impls = selected_impls(args)
    insts = shard(cases.instances(args.filter, args.quick), args.shard)
    if args.list:
        for inst in insts:
            print(inst.id, " ".join(inst.compile_command("ln-compile")[1:]))
        return 0
    if not insts:
        print("no corpus case matches the filter", file=sys.stderr)
        return 1
    if args.part_json:
        return work(args, insts, impls)

    meta, results, not_run = supervise(args, insts, impls)
    if meta is None and not results:
        print("corpus_run: the worker process could not start (see above)", file=sys.stderr)
        return 1
    print()
    print(format_table(results, impls))
    doc = make_document(results, impls, meta or {})
    doc["not_run"] = [i.id for i in not_run]
    print()
    print(summary_text(doc["summary"]))
    if not_run:
        print(f"stopped after --max-seconds {args.max_seconds}: {len(not_run)} instances not run")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"wrote {args.json}")
    return 0 if not doc["summary"]["wrong"] and not not_run else 1


if __name__ == "__main__":
    sys.exit(main())
