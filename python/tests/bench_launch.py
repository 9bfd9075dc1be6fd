"""Launch overhead of the Python package on the CPU, with the stand-in
driver (no GPU): CPU time per launch of the hit path (kiln.jit and the
drop-in `triton`), of the ctypes call alone, and of the Python side alone.
Run:

  KILN_LIBRARY=build/lib/libkiln.so \\
  KILN_CUDA_DRIVER=build/lib/libkiln_fake_cuda.so \\
  python3 python/tests/bench_launch.py [--check US]

--check US exits 1 when the drop-in's Python side (the stand-in's ctypes
call excluded) takes more than US microseconds per launch (CI runs it with a
generous bound; timings vary between machines).
"""
import sys
import time

from kilntest_common import ADD_SOURCE, FakeTensor

import kiln
import kiln._jit as jit_impl


def per_call_us(loop, n=20000, repeat=7):
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        loop(n)
        best = min(best, (time.process_time() - t) / n * 1e6)
    return best


def bench_kiln_jit():
    k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel
    x, y, o = (FakeTensor(p) for p in (0x10000, 0x20000, 0x30000))
    grid = (4,)
    grid_fn = lambda meta: (kiln.cdiv(meta["n"], meta["BLOCK"]),)  # noqa
    k[grid](x, y, o, 1000, BLOCK=256)
    entry = next(iter(k._launches.values()))
    buf = entry.pack(4, 1, 1, 0, 0, 0x10000, 0, 0x20000, 0, 0x30000, 0,
                     1000, 0)
    c_launch = jit_impl._launcher_launch

    def tuple_grid(n):
        for _ in range(n):
            k[grid](x, y, o, 1000, BLOCK=256)

    def callable_grid(n):
        for _ in range(n):
            k[grid_fn](x, y, o, 1000, BLOCK=256)

    def c_only(n):
        for _ in range(n):
            c_launch(entry.c_handle, buf, entry.c_size)

    print("kiln.jit launch, tuple grid     %.2f us" % per_call_us(tuple_grid))
    print("kiln.jit launch, callable grid  %.2f us" %
          per_call_us(callable_grid))
    c_us = per_call_us(c_only)
    print("ctypes call + runtime           %.2f us" % c_us)
    jit_impl._launcher_launch = lambda handle, b, size: 0
    try:
        print("kiln.jit Python side only      %.2f us" %
              per_call_us(tuple_grid))
    finally:
        jit_impl._launcher_launch = c_launch
    return c_us


def bench_dropin(c_us):
    import os
    import tempfile
    kiln.install()
    import triton  # noqa: F401
    d = tempfile.mkdtemp()
    path = os.path.join(d, "bench_add.py")
    with open(path, "w") as f:
        f.write(ADD_SOURCE)
    sys.path.insert(0, d)
    import bench_add
    k = bench_add.add_kernel
    x, y, o = (FakeTensor(p) for p in (0x10000, 0x20000, 0x30000))
    grid = (4,)
    grid_fn = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)  # noqa
    k[grid](x, y, o, 1000, BLOCK=256)

    def tuple_grid(n):
        for _ in range(n):
            k[grid](x, y, o, 1000, BLOCK=256)

    def callable_grid(n):
        for _ in range(n):
            k[grid_fn](x, y, o, 1000, BLOCK=256)

    t = per_call_us(tuple_grid)
    print("drop-in triton, tuple grid      %.2f us" % t)
    print("drop-in triton, callable grid   %.2f us" %
          per_call_us(callable_grid))
    print("drop-in Python side (minus C)   %.2f us" % (t - c_us))
    return t - c_us


def bench_descriptors():
    """Both hit paths with two host TensorDescriptor arguments (the kernel
    of test_dropin_descriptors.py), Python side only."""
    import os
    from dropin import descriptors
    from triton.tools.tensor_descriptor import TensorDescriptor

    def f16(ptr):
        return FakeTensor(ptr, "torch.float16", 100 * 72, None, 2)
    x = TensorDescriptor(f16(0x100000), [100, 70], [72, 1], [32, 64])
    y = TensorDescriptor(f16(0x200000), [100, 70], [72, 1], [32, 64])
    jitted = kiln.jit(os.path.abspath(descriptors.__file__)).scale_desc
    dropin = descriptors.scale_desc

    def loop(k):
        def run(n):
            for _ in range(n):
                k[(4,)](x, y, 5, BM=32)
        return run
    c_launch = jit_impl._launcher_launch
    jit_impl._launcher_launch = lambda handle, b, size: 0
    try:
        loop(jitted)(1)
        print("kiln.jit, 2 descriptors, Python  %.2f us" %
              per_call_us(loop(jitted)))
    finally:
        jit_impl._launcher_launch = c_launch
    loop(dropin)(1)
    print("drop-in, 2 descriptors (with C)  %.2f us" % per_call_us(loop(dropin)))


def main(argv):
    c_us = bench_kiln_jit()
    python_us = bench_dropin(c_us)
    bench_descriptors()
    if len(argv) == 2 and argv[0] == "--check":
        bound = float(argv[1])
        if python_us > bound:
            print("FAIL: the drop-in's Python side takes %.2f us per launch "
                  "(bound %.2f us)" % (python_us, bound))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
