"""Runs the tma_store_tiles cases of test/gpu/cases_tma.py whose names contain PATTERN under one
backend only (triton or kiln), each launch synchronized: which backend faults, and on which case.
    python3 store_case.py BACKEND PATTERN"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
import torch  # noqa: E402

import kcompare  # noqa: E402

backend, pattern = sys.argv[1], sys.argv[2]


def run_case(results, name, path, kernel, grid, make, outputs, meta, check):
    if not name.startswith("tma_store_tiles") or pattern not in name:
        return
    tmod, kmod = kcompare.triton_module(path)
    k = getattr(tmod if backend == "triton" else kmod, kernel)
    args = make()
    for i in outputs:
        kcompare.poison(args[i])
    try:
        k[grid](*args, **meta)
        torch.cuda.synchronize()
        print("OK ", backend, name, flush=True)
    except Exception as e:
        print("ERR", backend, name, type(e).__name__, str(e)[:160].replace("\n", " "), flush=True)
        sys.exit(3)


kcompare.run_case = run_case
import cases_tma  # noqa: E402

cases_tma.cases([])
