#!/usr/bin/env python3
"""Snapshot the PTX of every corpus kernel and of the LayerNorm kernels, or compare two snapshots.

Used to check that a compiler change (pass pipeline, code generation options) does not make any
kernel's PTX worse:

    python3 bench/ptx_snapshot.py dump --ln-compile build/bin/ln-compile -o /tmp/ptx-before
    ... change the compiler, rebuild ...
    python3 bench/ptx_snapshot.py dump --ln-compile build/bin/ln-compile -o /tmp/ptx-after
    python3 bench/ptx_snapshot.py diff /tmp/ptx-before /tmp/ptx-after

`diff` prints, for every kernel whose PTX differs, the instruction count before and after (and
the opcodes whose counts changed); identical files are only counted. Exits 1 if a snapshot lacks
a kernel the other has.
"""
import argparse
import collections
import hashlib
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

LAYERNORM = os.path.join(ROOT, "examples", "layernorm", "layer_norm.py")


def layernorm_units(ln):
    """(name, argv without -o) for the LayerNorm kernels at several widths and dtypes."""
    units = []
    for dt in ("fp16", "bf16", "fp32"):
        p, f = f"*{dt}:16", "*fp32:16"
        for block in (1024, 4096, 8192, 16384):
            warps = min(max(block // 256, 1), 8)
            units.append((f"ln-fwd-{dt}-{block}",
                          [ln, LAYERNORM, "--kernel", "_layer_norm_fwd_fused", "--signature",
                           ",".join([p, p, p, p, f, f, "i32:16", "i32:16", "fp32"]),
                           "-D", f"BLOCK_SIZE={block}", "--num-warps", str(warps)]))
            units.append((f"ln-dx-{dt}-{block}",
                          [ln, LAYERNORM, "--kernel", "_layer_norm_bwd_dx_fused", "--signature",
                           ",".join([p] * 6 + [f, f, "*i32:16", "i32:16", "i32:16"]),
                           "-D", "GROUP_SIZE_M=96", "-D", f"BLOCK_SIZE_N={block}",
                           "--num-warps", str(warps)]))
        units.append((f"ln-dwdb-{dt}",
                      [ln, LAYERNORM, "--kernel", "_layer_norm_bwd_dwdb", "--signature",
                       ",".join([p] * 4 + ["i32", "i32:16"]),
                       "-D", "BLOCK_SIZE_M=32", "-D", "BLOCK_SIZE_N=128", "--num-warps", "4"]))
        for arch in ("sm_80",):
            units.append((f"ln-fwd-{dt}-8192-{arch}",
                          [ln, LAYERNORM, "--kernel", "_layer_norm_fwd_fused", "--signature",
                           ",".join([p, p, p, p, f, f, "i32:16", "i32:16", "fp32"]),
                           "-D", "BLOCK_SIZE=8192", "--num-warps", "8", "--arch", arch]))
    return units


def corpus_units(ln):
    import cases
    units = {}
    for inst in cases.instances(None):
        argv = inst.compile_command(ln)
        assert argv[-2] == "-o"
        key = tuple(argv[:-2])
        name = inst.id.replace("/", "-")
        units.setdefault(key, name)
    return [(name, list(argv)) for argv, name in units.items()]


def dump(args):
    os.makedirs(args.output, exist_ok=True)
    units = layernorm_units(args.ln_compile) + corpus_units(args.ln_compile)

    def job(unit):
        name, argv = unit
        path = os.path.join(args.output, name + ".ptx")
        p = subprocess.run(argv + ["-o", path], capture_output=True, text=True)
        return name, p.returncode, p.stderr

    failed = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for name, rc, err in pool.map(job, units):
            if rc:
                failed += 1
                print(f"FAIL {name}: {err.strip()[:500]}")
    print(f"{len(units) - failed} kernels written to {args.output}, {failed} failed")
    return 1 if failed else 0


INSTR = re.compile(r"^\s+(?:@%?!?\w+\s+)?([a-z][\w.]*)")


def opcodes(path):
    counts = collections.Counter()
    with open(path) as f:
        for line in f:
            if line.lstrip().startswith(("//", ".", "}", "{")) or line.rstrip().endswith(":"):
                continue
            m = INSTR.match(line)
            if m:
                counts[m.group(1).split(".")[0]] += 1
    return counts


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def diff(args):
    a = {n for n in os.listdir(args.before) if n.endswith(".ptx")}
    b = {n for n in os.listdir(args.after) if n.endswith(".ptx")}
    missing = sorted(a ^ b)
    for n in missing:
        print(f"only in {'before' if n in a else 'after'}: {n}")
    same = longer = shorter = changed = 0
    for n in sorted(a & b):
        pa, pb = os.path.join(args.before, n), os.path.join(args.after, n)
        if digest(pa) == digest(pb):
            same += 1
            continue
        ca, cb = opcodes(pa), opcodes(pb)
        na, nb = sum(ca.values()), sum(cb.values())
        delta = {k: cb[k] - ca[k] for k in set(ca) | set(cb) if cb[k] != ca[k]}
        longer += nb > na
        shorter += nb < na
        changed += nb == na
        print(f"{n[:-4]}: {na} -> {nb} instructions"
              + (f"  ({', '.join(f'{k} {v:+d}' for k, v in sorted(delta.items()))})" if delta else ""))
    print(f"{same} identical, {changed} differ at equal length, {shorter} shorter, {longer} longer")
    return 1 if missing else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="write NAME.ptx for every kernel into -o DIR")
    d.add_argument("--ln-compile", required=True)
    d.add_argument("-o", "--output", required=True)
    d.add_argument("-j", "--jobs", type=int, default=2)
    c = sub.add_parser("diff", help="compare two snapshot directories")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args(argv)
    return dump(args) if args.command == "dump" else diff(args)


if __name__ == "__main__":
    sys.exit(main())
