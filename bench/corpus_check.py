#!/usr/bin/env python3
"""Compile every kernel corpus case with ln-compile (CI: no GPU, no torch).

For each (case, shape, dtype) of bench/corpus/cases.py, derives the signature
Kiln's runtime would specialize the launch for (pointer dtypes, `:16` on the
harness's fresh allocations, i32/i64 scalars with `:16` when divisible by 16,
fp32 floats), the constexprs and num_warps, and compiles it to PTX. Identical
compilations are done once. With --ptxas, the PTX is also assembled for its
own .target (sm_90, or sm_90a where it uses wgmma)
(an error fails the compilation; register spills are reported). Prints every
failure with the tool's message and ends with "N passed, N failed"; exits 1
if any failed.

    python3 bench/corpus_check.py --ln-compile build/bin/ln-compile [--ptxas ptxas]
        [--filter TEXT] [-j N] [-v]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

import cases  # noqa: E402


def compile_units(ln_compile, pattern=None, verify_each=False):
    """{argv tuple: [instance ids]} for the selected instances; with
    verify_each, ln-compile runs MLIR's verifier after every backend pass."""
    units = {}
    for inst in cases.instances(pattern):
        argv = inst.compile_command(ln_compile)
        if verify_each:
            argv = argv[:1] + ["--verify-each"] + argv[1:]
        units.setdefault(tuple(argv), []).append(inst.id)
    return units


def run_one(argv, timeout):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        return p.returncode, (p.stdout + p.stderr).strip()
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s"
    except OSError as e:
        return -1, str(e)


SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
REGS = re.compile(r"Used (\d+) registers")


def compile_and_assemble(argv, ptxas, timeout):
    """ln-compile to a temporary PTX file, then ptxas -v on it.
    Returns (status, message, note) where note tells registers and spills."""
    with tempfile.TemporaryDirectory(prefix="corpus-check-") as d:
        ptx = os.path.join(d, "k.ptx")
        rc, text = run_one(argv[:-1] + [ptx], timeout)
        if rc != 0:
            return rc, text, ""
        # The PTX's own target: sm_90a for kernels that use wgmma.
        with open(ptx) as f:
            target = re.search(r"^\.target\s+(sm_\w+)", f.read(), re.M)
        arch = target.group(1) if target else "sm_90"
        rc, text = run_one([ptxas, "-arch=" + arch, "-v", ptx, "-o", os.path.join(d, "k.cubin")],
                           timeout)
        if rc != 0:
            return rc, "ptxas: " + text, ""
        regs = REGS.search(text)
        spill = SPILL.search(text)
        note = f"{regs.group(1) if regs else '?'} registers"
        if spill and (int(spill.group(1)) or int(spill.group(2))):
            note += f", SPILLS {spill.group(1)} B stores / {spill.group(2)} B loads"
        return 0, text, note


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ln-compile", required=True, help="path of the ln-compile binary")
    ap.add_argument("--filter", help="only instances whose id (case/shape/dtype) contains this")
    ap.add_argument("--ptxas", help="also assemble the PTX with this ptxas (sm_90)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120, help="seconds per compilation")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every command")
    ap.add_argument("--verify-each", action="store_true",
                    help="ln-compile --verify-each: MLIR's verifier after every backend pass")
    args = ap.parse_args(argv)

    units = compile_units(args.ln_compile, args.filter, args.verify_each)
    if not units:
        print("no corpus case matches the filter")
        return 1
    if args.ptxas:
        def job(a):
            return compile_and_assemble(list(a), args.ptxas, args.timeout)
    else:
        def job(a):
            return run_one(list(a), args.timeout) + ("",)
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(job, units))
    passed = failed = spills = 0
    for (argv_, ids), (rc, text, note) in zip(units.items(), results):
        spills += "SPILLS" in note
        if args.verbose or rc != 0 or "SPILLS" in note:
            print(("FAIL " if rc else "ok   ") + " ".join(ids) + (f"  ({note})" if note else ""))
            print("     " + " ".join(f"'{a}'" if " " in a or "," in a else a for a in argv_))
        if rc != 0:
            failed += 1
            print("\n".join("     " + line for line in text.splitlines()[:20]))
        else:
            passed += 1
    n_inst = sum(len(ids) for ids in units.values())
    print(f"corpus: {len(units)} distinct compilations for {n_inst} case instances"
          + (f", assembled with ptxas ({spills} with register spills)" if args.ptxas else ""))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
