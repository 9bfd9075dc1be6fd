#!/usr/bin/env python3
"""Small kernels run under Triton 3.6 and under Kiln from the same file, outputs compared.

Each family is a module test/gpu/cases_<family>.py with a `cases(results)` function (helpers in
kcompare.py); e.g. cases_random.py covers every random builtin (bitwise for integer results and
uniform floats) and cases_scan.py the reductions and scans. The launch signatures are documented
at the top of each kernel file. Outputs are poisoned before each run.

  python3 test/gpu/compare_kernels.py [--only FAMILY[,FAMILY...]] [--json OUT]
Prints one line per case and "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import glob
import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def families():
    return sorted(os.path.basename(p)[len("cases_"):-3]
                  for p in glob.glob(os.path.join(HERE, "cases_*.py")))


class Results(list):
    """The cases' results, each printed as it is recorded: a run cut short by
    a time limit still shows every case it finished."""

    def append(self, result):
        name, ok, detail = result
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)
        super().append(result)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="comma-separated families: " + ", ".join(families()))
    ap.add_argument("--json")
    a = ap.parse_args()
    chosen = a.only.split(",") if a.only else families()
    unknown = [f for f in chosen if f not in families()]
    if unknown:
        ap.error(f"unknown family {unknown[0]!r}; known: {', '.join(families())}")
    results = Results()
    for fam in chosen:
        importlib.import_module("cases_" + fam).cases(results)
    npass = sum(1 for r in results if r[1])
    print(f"{npass} passed, {len(results) - npass} failed")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"case": n, "ok": o, "detail": d} for n, o, d in results], f, indent=1)
    sys.exit(0 if npass == len(results) else 1)


if __name__ == "__main__":
    main()
