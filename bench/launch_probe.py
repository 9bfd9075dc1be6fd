#!/usr/bin/env python3
"""Where a short kernel's time goes: Kiln and Triton on the same corpus
instances, timed four ways, with the size of their machine code.

    python3 bench/launch_probe.py [--filter TEXT ...] [--reps N] [--sass DIR]

For each instance and implementation:
  flush   the corpus method (L2 flushed, events around each launch, median);
  hot     events around each launch, nothing flushed (caches warm);
  batch   100 launches between two events, per launch (back-to-back);
  idle    the stream drained before each timed launch (includes the host's
          submission time, which `flush` hides behind the flush kernel).
Then two kernels that do (almost) nothing, compiled by both, give the floor.
With --sass DIR (and ptxas/cuobjdump on PATH or in Triton's package) the SASS
of both is written there and its instruction count printed.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_run  # noqa: E402
from corpus_run import Runner, cases, launch_args  # noqa: E402
from corpus_model import Ctx  # noqa: E402

FLOOR_KERNELS = '''
import triton
import triton.language as tl


@triton.jit
def nothing_kernel(X):
    pass


@triton.jit
def store_one_kernel(X):
    tl.store(X + tl.program_id(0), 1.0)
'''


def events(torch, n):
    return [torch.cuda.Event(enable_timing=True) for _ in range(n)]


def timings(runner, fn, reps):
    torch = runner.torch
    out = {}
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    out["flush"] = statistics.median(runner.samples(fn, reps))
    for mode in ("hot", "idle"):
        s, e = events(torch, reps), events(torch, reps)
        for a, b in zip(s, e):
            if mode == "idle":
                torch.cuda.synchronize()
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize()
        out[mode] = 1e3 * statistics.median(a.elapsed_time(b) for a, b in zip(s, e))
    a, b = events(torch, 2)
    a.record()
    for _ in range(100):
        fn()
    b.record()
    torch.cuda.synchronize()
    out["batch"] = 10 * a.elapsed_time(b)
    return out


def tool(name):
    try:
        import triton
        p = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
        if os.path.exists(p):
            return p
    except ImportError:
        pass
    return name


def sass_count(cubin, out_path):
    text = subprocess.run([tool("cuobjdump"), "-sass", cubin], capture_output=True,
                          text=True).stdout
    with open(out_path, "w") as f:
        f.write(text)
    return sum(1 for line in text.splitlines() if line.strip().startswith("/*") and
               "*/" in line and line.strip()[2:6].strip("0123456789abcdef") == "")


def kiln_cubin(kern, args, consts, nw, path):
    ptx = kern.compile(*args, arch="sm_90", num_warps=nw, **consts).ptx
    with open(path + ".ptx", "w") as f:
        f.write(ptx)
    subprocess.run([tool("ptxas"), "-arch=sm_90a", "-c", "-o", path, path + ".ptx"], check=True)
    return path


def triton_cubin(kern, args, consts, nw, grid, path):
    compiled = kern.warmup(*args, grid=grid, num_warps=nw, **consts)
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    return path


def probe(runner, torch, impl, kern, args, consts, grid, nw, label, sass_dir, reps):
    def launch():
        kern[grid](*args, **consts, num_warps=nw)
    launch()
    torch.cuda.synchronize()
    t = timings(runner, launch, reps)
    line = f"{label:44s} {impl:6s} " + " ".join(f"{k} {v:7.2f}" for k, v in t.items())
    if sass_dir:
        base = os.path.join(sass_dir, label.replace("/", "_") + "." + impl)
        try:
            cubin = (kiln_cubin(kern, args, consts, nw, base + ".cubin") if impl == "kiln"
                     else triton_cubin(kern, args, consts, nw, grid, base + ".cubin"))
            line += f"  sass {sass_count(cubin, base + '.sass')}"
        except Exception as e:  # the timing is still worth printing
            line += f"  sass ? ({type(e).__name__}: {e})"
    print(line, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", action="append", default=[])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--sass", default=None)
    args = ap.parse_args()
    import torch
    runner = Runner(torch, corpus_run.IMPLS, 10, args.reps)
    if args.sass:
        os.makedirs(args.sass, exist_ok=True)
    insts = [i for f in (args.filter or [""]) for i in cases.instances(f, False)]
    for inst in insts:
        for impl in corpus_run.IMPLS:
            kern = runner.kernel(impl, inst)
            t = runner.inputs(Ctx(torch, "cuda", inst.dtype), inst)
            a, consts = launch_args(inst, t)
            probe(runner, torch, impl, kern, a, consts, inst.grid(runner.sms),
                  inst.num_warps(), inst.id, args.sass, args.reps)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "floor_kernels.py")
        with open(path, "w") as f:
            f.write(FLOOR_KERNELS)
        import importlib.util
        spec = importlib.util.spec_from_file_location("floor_kernels", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        x = torch.zeros(1024, device="cuda")
        kmod = runner.kiln.jit(path)
        for name in ("nothing_kernel", "store_one_kernel"):
            for grid in ((1,), (132,)):
                for impl, m in (("triton", mod), ("kiln", kmod)):
                    probe(runner, torch, impl, getattr(m, name), [x], {}, grid, 4,
                          f"{name}/grid{grid[0]}", args.sass, args.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
