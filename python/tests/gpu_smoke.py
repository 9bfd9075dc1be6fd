"""On a GPU machine with torch: launches a Kiln kernel from Python, checks
the result against torch, and times the launch overhead from Python (and
Triton's on the same kernel file, when triton is installed). Not part of
ctest (needs a GPU): run through scripts/kiln-pytest-env.sh --smoke.

Prints one JSON line at the end: {"ok": ..., "kiln_launch_us": ...,
"triton_launch_us": ...}.
"""
import json
import os
import sys
import tempfile
import time

import torch

import kiln

from gpu_dropin_bench import KERNEL as SOURCE  # beside this file


def launch_us(fn, iters=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / iters * 1e6


def main():
    result = {"ok": False, "device": torch.cuda.get_device_name(0),
              "kiln": kiln.__version__, "library": kiln.library_path}
    path = os.path.join(tempfile.mkdtemp(), "add.py")
    with open(path, "w") as f:
        f.write(SOURCE)
    add = kiln.jit(path).add_kernel
    n = 98432
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    grid = lambda meta: (kiln.cdiv(meta["n"], meta["BLOCK"]),)  # noqa: E731
    add[grid](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    err = (out - (x + y)).abs().max().item()
    result["max_abs_error"] = err
    result["ok"] = err == 0.0

    # On a side stream too: Kiln launches on torch's current stream.
    s = torch.cuda.Stream()
    out2 = torch.zeros_like(x)
    with torch.cuda.stream(s):
        add[grid](x, y, out2, n, BLOCK=1024)
    s.synchronize()
    result["stream_ok"] = bool(torch.equal(out2, out))
    result["ok"] = result["ok"] and result["stream_ok"]

    # A compile error comes back as kiln.CompilationError with FILE:LINE:COL.
    bad = kiln.jit(source=SOURCE.replace("x + y", "x + zz"), filename="bad.py")
    try:
        bad.add_kernel[grid](x, y, out, n, BLOCK=1024)
        result["compile_error_ok"] = False
    except kiln.CompilationError as e:
        result["compile_error_ok"] = str(e).startswith("bad.py:11:")
    result["ok"] = result["ok"] and result["compile_error_ok"]

    g = (kiln.cdiv(n, 1024),)
    result["kiln_launch_us"] = round(
        launch_us(lambda: add[g](x, y, out, n, BLOCK=1024)), 2)
    result["kiln_launch_us_grid_fn"] = round(
        launch_us(lambda: add[grid](x, y, out, n, BLOCK=1024)), 2)
    try:
        import importlib.util
        spec = importlib.util.spec_from_file_location("tri_add", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        tadd = mod.add_kernel
        tadd[g](x, y, out, n, BLOCK=1024)
        # kiln.jit of Triton's own @triton.jit object: the same def.
        kadd = kiln.jit(tadd)
        out3 = torch.zeros_like(x)
        kadd[g](x, y, out3, n, BLOCK=1024)
        torch.cuda.synchronize()
        result["jit_of_triton_function_ok"] = bool(torch.equal(out3, x + y))
        result["ok"] = result["ok"] and result["jit_of_triton_function_ok"]
        result["triton_launch_us"] = round(
            launch_us(lambda: tadd[g](x, y, out, n, BLOCK=1024)), 2)
    except Exception as e:  # triton missing or failing: report, not fail
        result["triton_launch_us"] = None
        result["triton_error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
