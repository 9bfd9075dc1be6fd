#!/usr/bin/env python3
"""Markdown performance report from a device run (for docs/performance.md).

    python3 bench/perf_report.py ln-bench.json [--triton triton.json]
        [--gtest gtest-gpu.xml] [-o report.md]

Reads ln-bench's JSON (GB/s per shape and dtype, compile times, launch
overhead), optionally compare_triton.py's JSON (Kiln time / Triton time) and
the GPU GoogleTest XML (test summary). Needs only the standard library.
"""
import argparse
import json
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kiln_json")
    ap.add_argument("--triton", help="compare_triton.py --json output")
    ap.add_argument("--gtest", help="RuntimeGpuTests --gtest_output=xml file")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    args = ap.parse_args()
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
