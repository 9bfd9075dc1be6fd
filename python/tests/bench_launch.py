"""Launch overhead of the Python package on the CPU, with the stand-in
driver (no GPU): CPU time per launch of the hit path, of the ctypes call
alone, and of the Python side alone. Not a ctest (timings vary); run:

  KILN_LIBRARY=build/lib/libkiln.so \\
  KILN_CUDA_DRIVER=build/lib/libkiln_fake_cuda.so \\
  python3 python/tests/bench_launch.py
"""
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


def main():
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
            c_launch(entry.handle, buf, len(buf))

    print("launch, tuple grid     %.2f us" % per_call_us(tuple_grid))
    print("launch, callable grid  %.2f us" % per_call_us(callable_grid))
    print("ctypes call + runtime  %.2f us" % per_call_us(c_only))
    jit_impl._launcher_launch = lambda handle, b, size: 0
    try:
        print("Python side only       %.2f us" % per_call_us(tuple_grid))
    finally:
        jit_impl._launcher_launch = c_launch


if __name__ == "__main__":
    main()
