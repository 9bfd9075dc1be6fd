"""Times the matmul kernels of Triton's tutorial 09 (persistent matmul), unmodified, under the
`triton` that runs this script: Triton itself (`python3 bench/tutorial09_bench.py TUTORIAL`) or
Kiln's drop-in (`python3 -m kiln.run bench/tutorial09_bench.py TUTORIAL`), and prints one JSON
line per case: the kernel's function, M, N, K, dtype, the median ms (triton.testing.do_bench) and
whether its result matches the tutorial's naive kernel (the tutorial's own check: allclose with
atol 1). With --per-config, every config of each kernel's autotuner is timed on its own.

The tutorial profiles with Triton's profiler (proton) and compares with Triton's own cuBLAS
binding; the drop-in has neither. They are imported at the tutorial's top level, so stand-ins
are put in their place when missing; nothing here calls them.
"""
import argparse
import importlib.util
import json
import sys
import types

import torch
import triton


def stand_in_missing_modules():
    try:
        import triton.profiler  # noqa: F401
    except ImportError:
        sys.modules["triton.profiler"] = types.ModuleType("triton.profiler")
    try:
        from triton._C.libtriton import nvidia  # noqa: F401
    except ImportError:
        c = sys.modules.get("triton._C") or types.ModuleType("triton._C")
        lib = types.ModuleType("triton._C.libtriton")
        lib.nvidia = types.SimpleNamespace(cublas=types.SimpleNamespace(CublasLt=lambda ws: None))
        c.libtriton = lib
        sys.modules["triton._C"] = c
        sys.modules["triton._C.libtriton"] = lib


def time_case(row, fn, expect, M, N, K):
    row = dict(row)
    try:
        got = fn()
        row["ok"] = bool(torch.allclose(expect, got.to(expect.dtype), atol=1.0))
        row["ms"] = triton.testing.do_bench(fn)
        row["tflops"] = 2.0 * M * N * K / (row["ms"] * 1e-3) / 1e12
    except Exception as e:  # a failed case is reported, not a stop
        row["error"] = "%s: %s" % (type(e).__name__, str(e)[:300])
    print(json.dumps(row), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tutorial")
    parser.add_argument("--sizes", default="8192x8192x512,8192x8192x4096")
    parser.add_argument("--dtypes", default="fp16,fp8")
    parser.add_argument("--kernels", default="naive,persistent,tma_persistent,descriptor_persistent")
    parser.add_argument("--per-config", action="store_true",
                        help="time every config of each kernel's autotuner alone (its config "
                             "list cut to that one), not the autotuner's pick")
    args = parser.parse_args()
    stand_in_missing_modules()
    spec = importlib.util.spec_from_file_location("persistent_matmul", args.tutorial)
    tut = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tut)
    backend = "kiln" if "kiln" in sys.modules else "triton"
    for name in args.dtypes.split(","):
        dtype = torch.float16 if name == "fp16" else torch.float8_e4m3fn
        for size in args.sizes.split(","):
            M, N, K = (int(x) for x in size.split("x"))
            torch.manual_seed(0)
            a = torch.randn((M, K), device="cuda", dtype=torch.float16).to(dtype)
            b = torch.randn((K, N), device="cuda", dtype=torch.float16).to(dtype)
            bt = b.T.contiguous()
            expect = tut.matmul(a, bt.T).to(torch.float16)
            cases = [("persistent", lambda: tut.matmul_persistent(a, bt.T)),
                     ("tma_persistent", lambda: tut.matmul_tma_persistent(a, bt, False)),
                     ("descriptor_persistent",
                      lambda: tut.matmul_descriptor_persistent(a, bt, False))]
            if name == "fp16":
                cases.insert(0, ("naive", lambda: tut.matmul(a, bt.T)))
            tuners = {"naive": tut.matmul_kernel, "persistent": tut.matmul_kernel_persistent,
                      "tma_persistent": tut.matmul_kernel_tma_persistent,
                      "descriptor_persistent": tut.matmul_kernel_descriptor_persistent}
            for case, fn in cases:
                if case not in args.kernels.split(","):
                    continue
                row = {"backend": backend, "kernel": case, "dtype": name, "M": M, "N": N, "K": K}
                if not args.per_config:
                    time_case(row, fn, expect, M, N, K)
                    continue
                tuner = tuners[case]
                every = list(tuner.configs)
                for config in every:
                    tuner.configs, tuner.cache = [config], {}
                    row["config"] = dict(config.kwargs, num_warps=config.num_warps,
                                         num_stages=config.num_stages)
                    time_case(row, fn, expect, M, N, K)
                tuner.configs, tuner.cache = every, {}


if __name__ == "__main__":
    main()
