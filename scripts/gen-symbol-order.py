#!/usr/bin/env python3
"""Regenerate cmake/symbol-order.txt: the functions a compile runs, for the linker to place together.

    python3 scripts/gen-symbol-order.py [--ln-compile build/bin/ln-compile] [-o cmake/symbol-order.txt]

A static ln-compile holds ~40 MB of code, of which one compile runs ~14 000 functions spread over
the whole text segment: every 64 KB of it that a run touches costs a page fault (about a fifth of
a cold compile's wall time on the 2-core machine). lld's --symbol-ordering-file puts the listed
functions first, next to each other, so a run touches a few hundred pages of code instead of
thousands (docs/performance.md, "Compile latency").

The list is what callgrind sees ln-compile execute for the three LayerNorm kernels (built-in mode)
and for one instance of every corpus kernel (bench/corpus_run.py --list): elementwise,
reductions, loops, atomics, scans, tl.dot. Functions run by every compile come first. A stale list
only costs speed: names it lacks are placed as usual and names the binary lacks are ignored.
Needs valgrind; takes a few minutes.
"""
import argparse
import collections
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compiles(ln_compile, out_dir):
    """The ln-compile argument lists to profile."""
    yield ["-o", os.path.join(out_dir, "builtin")]
    listing = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "corpus_run.py"), "--list"],
                             check=True, capture_output=True, text=True).stdout
    seen = set()
    for line in listing.splitlines():
        instance, _, flags = line.partition(" ")
        kernel = instance.split("/")[0]
        if kernel in seen or not flags:
            continue
        seen.add(kernel)
        args = shlex.split(flags)
        args[args.index("-o") + 1] = os.path.join(out_dir, kernel + ".ptx")
        yield args


def functions_run(callgrind_out):
    """Mangled names of the functions in one callgrind profile."""
    names = set()
    with open(callgrind_out, errors="replace") as f:
        for line in f:
            m = re.match(r"c?fn=\(\d+\) (\S+)$", line)
            if m and not m.group(1).startswith("0x"):
                names.add(m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ln-compile", default=os.path.join(ROOT, "build", "bin", "ln-compile"))
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "cmake", "symbol-order.txt"))
    a = ap.parse_args()
    counts = collections.Counter()
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        # valgrind cannot read the debug info of a binary this large; the symbol table suffices.
        binary = os.path.join(tmp, "ln-compile")
        subprocess.run(["strip", "--strip-debug", "-o", binary, a.ln_compile], check=True)
        for args in compiles(binary, tmp):
            profile = os.path.join(tmp, "callgrind.out")
            r = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                                f"--callgrind-out-file={profile}", binary] + args,
                               cwd=ROOT, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"ln-compile {' '.join(args)} failed under valgrind:\n{r.stderr[-2000:]}")
            counts.update(functions_run(profile))
            runs += 1
            print(f"\r{runs} compiles profiled, {len(counts)} functions", end="", file=sys.stderr)
    print(file=sys.stderr)
    ordered = sorted(counts, key=lambda n: (-counts[n], n))
    with open(a.output, "w") as f:
        f.write("\n".join(ordered) + "\n")
    print(f"{a.output}: {len(ordered)} functions from {runs} compiles")


if __name__ == "__main__":
    main()
