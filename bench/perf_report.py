#!/usr/bin/env python3
"""Markdown performance report from a device run (for docs/performance.md).

    python3 bench/perf_report.py ln-bench.json [--triton triton.json]
        [--gtest gtest-gpu.xml] [-o report.md]
    python3 bench/perf_report.py --corpus corpus.json [--png corpus.png] [-o report.md]

Reads ln-bench's JSON (GB/s per shape and dtype, compile times, launch
overhead), optionally compare_triton.py's JSON (Kiln time / Triton time) and
the GPU GoogleTest XML (test summary). With --corpus, reads
bench/corpus_run.py's JSON instead: a Markdown table of the kernel corpus and,
with --png, a bar chart of Kiln time / Triton time per kernel, shape and dtype
(needs matplotlib; without it the chart is skipped with a message). Needs only
the standard library otherwise.
"""
import argparse
import json
import os
import statistics
import sys
import xml.etree.ElementTree as ET


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def gtest_summary(path):
    root = ET.parse(path).getroot()
    total = int(root.get("tests", 0))
    failed = int(root.get("failures", 0)) + int(root.get("errors", 0))
    skipped, failures = 0, []
    for case in root.iter("testcase"):
        if case.get("result") == "skipped" or case.find("skipped") is not None:
            skipped += 1
        if case.find("failure") is not None:
            failures.append(f"{case.get('classname')}.{case.get('name')}")
    lines = [f"GPU tests (RuntimeGpuTests): {total} run, {total - failed - skipped} "
             f"passed, {failed} failed, {skipped} skipped; {root.get('time', '?')} s."]
    lines += [f"- FAILED {name}" for name in failures]
    return lines


def corpus_markdown(doc):
    """The kernel corpus run (corpus_run.py's JSON) as Markdown."""
    import corpus_run
    m = doc.get("method", {})
    dev = doc.get("device", {})
    impls = doc.get("impls", corpus_run.IMPLS)
    out = [f"Device: {dev.get('name', '?')}; {doc.get('date', '?')}; Triton "
           f"{doc.get('triton_version', '-')}, Kiln {doc.get('kiln_version', '-')}.",
           "",
           f"Method: CUDA events around each launch, median of {m.get('reps', '?')} "
           f"repetitions after {m.get('warmup', '?')} warm-up runs, L2 flushed by writing "
           f"{m.get('l2_flush_bytes', 0) >> 20} MB before each; the same kernel file, grid, "
           "constexprs and num_warps for both. GB/s = bytes the case moves / time.",
           "", corpus_run.format_markdown(doc["results"], impls), "",
           corpus_run.summary_text(corpus_run.summarize(doc["results"], impls))]
    return "\n".join(out) + "\n"


def corpus_chart(doc, path):
    """Horizontal bars of Kiln time / Triton time, one per instance."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("perf_report: matplotlib is not importable: no chart written", file=sys.stderr)
        return False
    import math
    import corpus_run
    recs = doc["results"]
    ratios = [r.get("ratio") for r in recs]
    if not any(ratios):
        print("perf_report: no instance has both times: no chart written", file=sys.stderr)
        return False
    impls = doc.get("impls", corpus_run.IMPLS)
    # Instances without a ratio (wrong or failed) keep their row, with the verdict.
    labels = [f"{r['case']} {r['shape']} {r['dtype']}"
              + ("" if v else f"  [{corpus_run.verdict(r, impls)}]")
              for r, v in zip(recs, ratios)]
    span = max(abs(math.log2(v)) for v in ratios if v) * 1.1 + 0.05
    fig, ax = plt.subplots(figsize=(9, 1.5 + 0.16 * len(recs)))
    ys = [y for y, v in enumerate(ratios) if v]
    vals = [v for v in ratios if v]
    # Bars grow from 1 (equal time): left for Kiln faster, right for slower.
    ax.barh(ys, [v - 1 for v in vals], left=1,
            color=["tab:green" if v <= 1 else "tab:red" for v in vals])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(recs)))
    ax.set_yticklabels(labels, fontsize=6)
    ax.set_ylim(len(recs) - 0.5, -0.5)
    ax.set_xscale("log", base=2)
    ax.set_xlim(2 ** -span, 2 ** span)
    ticks = [t for t in (0.25, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 4) if 2 ** -span <= t <= 2 ** span]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.grid(axis="x", linewidth=0.3)
    ax.set_xlabel("Kiln time / Triton time (below 1: Kiln faster)")
    geo = corpus_run.geomean(vals)
    ax.set_title(f"Kernel corpus, {doc.get('device', {}).get('name', '')}\nKiln/Triton "
                 f"geometric mean {geo:.2f} over {len(vals)} instances", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def write_text(text, path):
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def merge_corpus(docs):
    """One document from the JSON of several corpus_run.py shards: the first
    one's metadata, every result in corpus order."""
    import corpus_run
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
    import cases
    order = {inst.id: n for n, inst in enumerate(cases.instances())}
    results = sorted((r for d in docs for r in d["results"]),
                     key=lambda r: order.get(r["id"], len(order)))
    impls = docs[0].get("impls", corpus_run.IMPLS)
    meta = {k: v for k, v in docs[0].items() if k not in ("results", "summary", "not_run")}
    doc = {**meta, "results": results, "summary": corpus_run.summarize(results, impls),
           "not_run": [i for d in docs for i in d.get("not_run", [])]}
    return doc


def corpus_main(args):
    docs = []
    for path in args.corpus:
        with open(path) as f:
            doc = json.load(f)
        if doc.get("kind") != "kiln-corpus":
            print(f"perf_report: {path} is not corpus_run.py's JSON", file=sys.stderr)
            return 1
        docs.append(doc)
    doc = merge_corpus(docs) if len(docs) > 1 else docs[0]
    write_text(corpus_markdown(doc), args.output)
    if args.png and corpus_chart(doc, args.png):
        print(f"perf_report: wrote {args.png}", file=sys.stderr)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kiln_json", nargs="?", help="ln-bench --json output")
    ap.add_argument("--corpus", action="append",
                    help="corpus_run.py --json output (instead of kiln_json); repeat it to "
                    "merge the files of several --shard runs")
    ap.add_argument("--png", help="with --corpus: write a bar chart here (matplotlib)")
    ap.add_argument("--triton", help="compare_triton.py --json output")
    ap.add_argument("--gtest", help="RuntimeGpuTests --gtest_output=xml file")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    args = ap.parse_args()
    if args.corpus:
        return corpus_main(args)
    if not args.kiln_json:
        ap.error("give ln-bench's JSON or --corpus corpus.json")
    with open(args.kiln_json) as f:
        kiln = json.load(f)
    triton = {}
    tri_doc = {}
    if args.triton:
        try:
            with open(args.triton) as f:
                tri_doc = json.load(f)
            for r in tri_doc.get("results", []):
                triton[(r["dtype"], r["M"], r["N"])] = r
        except (OSError, ValueError) as e:
            print(f"perf_report: ignoring {args.triton}: {e}", file=sys.stderr)

    dev = kiln["device"]
    m = kiln["method"]
    out = [f"Device: {dev['name']} (cc {dev['compute_capability']}, "
           f"{dev['multiprocessors']} SMs, driver {dev['driver_version']}); "
           f"Kiln {kiln['kiln_version']}; {kiln['date']}.",
           "",
           f"Method: {m['timer']}, {m['statistic']} of {m['reps']} repetitions after "
           f"{m['warmup']} warm-up runs, L2 flushed by writing "
           f"{m['l2_flush_bytes'] >> 20} MB before each. GB/s = {m['fwd_bytes']} / t "
           f"(forward), {m['bwd_bytes']} / t (backward: {m['bwd_includes']})."
           + (f" Triton {tri_doc['triton_version']} ran the same kernel file with the "
              "same shapes and launch parameters (triton.testing.do_bench, median)."
              if tri_doc else ""),
           ""]
    if args.gtest:
        try:
            out += gtest_summary(args.gtest) + [""]
        except (OSError, ET.ParseError) as e:
            out += [f"GPU tests: no result ({e})", ""]

    head = "| dtype | M | N | fwd ms | fwd GB/s | bwd ms | bwd GB/s |"
    sep = "|---|---|---|---|---|---|---|"
    if triton:
        head += " Kiln/Triton fwd | Kiln/Triton bwd |"
        sep += "---|---|"
    out += [head, sep]
    fr, br = [], []
    for r in kiln["results"]:
        if "error" in r:
            out.append(f"| {r['dtype']} | {r['M']} | {r['N']} | error: "
                       f"{r['error'].splitlines()[0]} |")
            continue
        line = (f"| {r['dtype']} | {r['M']} | {r['N']} | {r['fwd_ms']:.4f} | "
                f"{r['fwd_gbps']:.0f} | {r['bwd_ms']:.4f} | {r['bwd_gbps']:.0f} |")
        t = triton.get((r["dtype"], r["M"], r["N"]))
        if triton:
            f = r["fwd_ms"] / t["triton_fwd_ms"] if t else None
            b = r["bwd_ms"] / t["triton_bwd_ms"] if t else None
            if f:
                fr.append(f)
            if b:
                br.append(b)
            line += f" {fmt(f, '.2f')} | {fmt(b, '.2f')} |"
        out.append(line)
    if fr and br:
        out += ["", f"Kiln time / Triton time, geometric mean over {len(fr)} shapes: "
                f"forward {statistics.geometric_mean(fr):.2f}, backward "
                f"{statistics.geometric_mean(br):.2f} (below 1: Kiln faster)."]

    if kiln.get("compile"):
        out += ["", "Compile time per kernel (cold: empty cache, compiler + driver JIT "
                "+ load; warm: a new process state with the disk cache filled):", "",
                "| kernel | dtype | N | cold ms | Kiln compile ms | driver JIT ms | "
                "load ms | warm ms | in-memory lookup us |",
                "|---|---|---|---|---|---|---|---|---|"]
        for c in kiln["compile"]:
            out.append(f"| {c['kernel']} | {c['dtype']} | {c['N']} | {c['cold_ms']:.1f} | "
                       f"{c['cold_compile_ms']:.1f} | {c['cold_jit_ms']:.1f} | "
                       f"{c['cold_load_ms']:.1f} | {c['warm_ms']:.2f} | "
                       f"{c['memory_lookup_us']:.2f} |")
    lo = kiln.get("launch_overhead") or {}
    if lo:
        out += ["", "Host launch overhead (us per call, median of 20 batches of 100):", "",
                f"- empty kernel through Kernel::launch: {lo['empty_kernel_us']:.2f}",
                f"- _layer_norm_fwd_fused (9 arguments) through Kernel::launch: "
                f"{lo['fwd_kernel_launch_us']:.2f}"
                + (f" (Triton: {tri_doc['triton_fwd_launch_us']:.2f})"
                   if tri_doc.get("triton_fwd_launch_us") else ""),
                f"- LayerNorm::forwardInto: {lo['layer_norm_forward_us']:.2f}",
                f"- LayerNorm::backwardInto (3 memsets, 2 launches): "
                f"{lo['layer_norm_backward_us']:.2f}"]
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
