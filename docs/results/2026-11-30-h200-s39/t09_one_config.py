"""Runs one config of one of tutorial 09's fp8 persistent matmuls (8192 x 8192 x 512) a few times,
for ncu: python3 [-m kiln.run] t09_one_config.py TUTORIAL KERNEL BN BK STAGES WARPS SUBTILE
(KERNEL: tma_persistent or descriptor_persistent). Prints do_bench's ms."""
import importlib.util
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../bench"))
from tutorial09_bench import stand_in_missing_modules  # noqa: E402

stand_in_missing_modules()
spec = importlib.util.spec_from_file_location("persistent_matmul", sys.argv[1])
tut = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tut)
KERNEL = sys.argv[2]
BN, BK, S, W = (int(x) for x in sys.argv[3:7])
SUB = sys.argv[7] == "True"
tuner = getattr(tut, "matmul_kernel_" + KERNEL)
tuner.configs = [c for c in tuner.configs
                 if c.kwargs["BLOCK_SIZE_N"] == BN and c.kwargs["BLOCK_SIZE_K"] == BK and
                 c.num_stages == S and c.num_warps == W and c.kwargs["EPILOGUE_SUBTILE"] == SUB]
assert len(tuner.configs) == 1, tuner.configs
run = getattr(tut, "matmul_" + KERNEL)
torch.manual_seed(0)
M = N = 8192
K = 512
a = torch.randn((M, K), device="cuda", dtype=torch.float16).to(torch.float8_e4m3fn)
bt = torch.randn((N, K), device="cuda", dtype=torch.float16).to(torch.float8_e4m3fn)
for _ in range(4):
    c = run(a, bt, False)
torch.cuda.synchronize()
print("ms", triton.testing.do_bench(lambda: run(a, bt, False)))
