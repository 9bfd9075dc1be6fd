"""Runs one config of tutorial 09's fp8 descriptor persistent matmul (8192 x 8192 x 512) a few
times, for ncu: python3 [-m kiln.run] t09_one_config.py TUTORIAL BN BK STAGES WARPS SUBTILE."""
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
BN, BK, S, W = (int(x) for x in sys.argv[2:6])
SUB = sys.argv[6] == "True"
tuner = tut.matmul_kernel_descriptor_persistent
tuner.configs = [c for c in tuner.configs
                 if c.kwargs["BLOCK_SIZE_N"] == BN and c.kwargs["BLOCK_SIZE_K"] == BK and
                 c.num_stages == S and c.num_warps == W and c.kwargs["EPILOGUE_SUBTILE"] == SUB]
assert len(tuner.configs) == 1, tuner.configs
torch.manual_seed(0)
M = N = 8192
K = 512
a = torch.randn((M, K), device="cuda", dtype=torch.float16).to(torch.float8_e4m3fn)
bt = torch.randn((N, K), device="cuda", dtype=torch.float16).to(torch.float8_e4m3fn)
for _ in range(4):
    c = tut.matmul_descriptor_persistent(a, bt, False)
torch.cuda.synchronize()
print("ms", triton.testing.do_bench(lambda: tut.matmul_descriptor_persistent(a, bt, False)))
