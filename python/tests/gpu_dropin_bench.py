"""First-call and per-launch overhead of one unmodified Triton kernel, under
the real Triton and under Kiln's drop-in (device only; needs torch + CUDA).

    python3 python/tests/gpu_dropin_bench.py                # both, compared
    python3 python/tests/gpu_dropin_bench.py --backend kiln  # one (child)

Each backend runs in its own process (the drop-in replaces `triton`), from a
cold cache (fresh TRITON_CACHE_DIR / KILN_CACHE_DIR). Per-launch overhead is
the host time of N back-to-back launches of a tiny kernel (bench_launch.py
style: the best of 7 rounds, CPU time per launch), and the host time of
batches of 256 launches that stay below the driver's launch-queue depth
(synchronized between batches, outside the timing). The outputs are checked against torch.
"""
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

KERNEL = '''import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
'''


def load_add_kernel(module_name):
    """KERNEL's add_kernel, imported from a file of its own in a fresh
    directory (`@triton.jit` of whichever triton is installed reads it)."""
    d = tempfile.mkdtemp()
    with open(os.path.join(d, module_name + ".py"), "w") as f:
        f.write(KERNEL)
    sys.path.insert(0, d)
    return importlib.import_module(module_name).add_kernel


def add_inputs(torch, n=1024):
    """x, y and an output of n floats on the current GPU for add_kernel."""
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    return x, y, torch.empty_like(x)


def child(backend):
    if backend == "kiln":
        import kiln
        kiln.install()
    import torch
    import triton
    k = load_add_kernel("bench_add_kernel")
    n = 1024
    x, y, out = add_inputs(torch, n)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    k[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    first_ms = (time.perf_counter() - t0) * 1e3
    assert torch.allclose(out, x + y), "wrong result"
    grid = (1,)
    grid_fn = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)  # noqa

    def per_launch_us(g, rounds=7, count=20000):
        # Sustained: 20000 launches back to back. Once the driver's launch
        # queue (about 1000 entries) is full, each launch waits for the GPU
        # to retire one, so this can measure the GPU's throughput on tiny
        # kernels rather than the host's overhead.
        best = float("inf")
        for _ in range(rounds):
            torch.cuda.synchronize()
            t = time.process_time()
            for _ in range(count):
                k[g](x, y, out, n, BLOCK=1024)
            best = min(best, (time.process_time() - t) / count * 1e6)
            torch.cuda.synchronize()
        return best

    def host_us(g, batches=100, count=256):
        # Host overhead: batches well below the queue depth, synchronized
        # between batches outside the timed region; the best batch.
        best = float("inf")
        for _ in range(batches):
            torch.cuda.synchronize()
            t = time.perf_counter()
            for _ in range(count):
                k[g](x, y, out, n, BLOCK=1024)
            best = min(best, (time.perf_counter() - t) / count * 1e6)
        torch.cuda.synchronize()
        return best
    result = {"backend": backend, "triton": triton.__version__,
              "first_call_ms": first_ms,
              "launch_us_tuple_grid": per_launch_us(grid),
              "launch_us_lambda_grid": per_launch_us(grid_fn),
              "host_us_tuple_grid": host_us(grid),
              "host_us_lambda_grid": host_us(grid_fn)}
    print(json.dumps(result))


def main(argv):
    if len(argv) == 2 and argv[0] == "--backend":
        child(argv[1])
        return 0
    rows = []
    for backend in ("triton", "kiln"):
        env = dict(os.environ, TRITON_CACHE_DIR=tempfile.mkdtemp(),
                   KILN_CACHE_DIR=tempfile.mkdtemp())
        r = subprocess.run([sys.executable, __file__, "--backend", backend],
                           capture_output=True, text=True, env=env)
        if r.returncode:
            print("%s failed:\n%s" % (backend, r.stderr))
            return 1
        rows.append(json.loads(r.stdout.strip().splitlines()[-1]))
    print("%-8s %14s %18s %19s %17s %18s" % (
        "backend", "first call ms", "launch us (tuple)", "launch us (lambda)",
        "host us (tuple)", "host us (lambda)"))
    for row in rows:
        print("%-8s %14.1f %18.2f %19.2f %17.2f %18.2f" % (
            row["backend"], row["first_call_ms"], row["launch_us_tuple_grid"],
            row["launch_us_lambda_grid"], row["host_us_tuple_grid"],
            row["host_us_lambda_grid"]))
    print("launch us: 20000 launches back to back (CPU time; can be bound by "
          "the GPU once the launch queue is full); host us: batches of 256 "
          "launches, synchronized between batches (wall time, best batch)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
