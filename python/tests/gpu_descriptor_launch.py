"""Host time per launch of a kernel taking two host TensorDescriptors
(test/gpu/tma_kernels.py `tma_mm`, pipelined: TMA copies on sm_90, so each
launch also encodes two CUtensorMaps), on the GPU:

  python3 python/tests/gpu_descriptor_launch.py --who kiln-jit   # kiln.jit
  python3 -m kiln.run python/tests/gpu_descriptor_launch.py --who dropin
  python3 python/tests/gpu_descriptor_launch.py --who triton     # Triton itself

Bursts of 200 launches (well inside the driver's launch queue, so the host
side is what is timed, not the GPU), synchronized between bursts; the
minimum of 30 bursts, per launch. The result is checked against torch.
"""
import argparse
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(ROOT, "test", "gpu", "tma_kernels.py")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--who", choices=["kiln-jit", "dropin", "triton"], required=True)
    args = ap.parse_args()
    if args.who == "kiln-jit":
        import kiln
        from kiln._triton.tools.tensor_descriptor import TensorDescriptor
        kernel = kiln.jit(KERNELS).tma_mm
    else:
        from triton.tools.tensor_descriptor import TensorDescriptor
        sys.path.insert(0, os.path.dirname(KERNELS))
        import tma_kernels
        kernel = tma_kernels.tma_mm
    a = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    b = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    c = torch.full((64, 64), float("nan"), device="cuda", dtype=torch.float32)
    ad = TensorDescriptor(a, [64, 64], [64, 1], [64, 64])
    bd = TensorDescriptor(b, [64, 64], [64, 1], [64, 64])

    def launch():
        kernel[(1, 1)](ad, bd, c, 64, 64, 64, BM=64, BN=64, BK=64, SHIFT=0,
                       num_warps=4, num_stages=3)
    t0 = time.perf_counter()
    launch()
    torch.cuda.synchronize()
    first_ms = (time.perf_counter() - t0) * 1e3
    err = (c - a.float() @ b.float()).abs().max().item()
    best = float("inf")
    for _ in range(30):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(200):
            launch()
        best = min(best, (time.perf_counter() - t0) / 200 * 1e6)
    torch.cuda.synchronize()
    print("%-8s first call %.1f ms, host %.2f us per launch (min of 30 bursts of 200), "
          "max err %.2e" % (args.who, first_ms, best, err))
    sys.exit(0 if err < 1e-2 else 1)


if __name__ == "__main__":
    main()
