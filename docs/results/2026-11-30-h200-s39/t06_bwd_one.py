"""Runs tutorial 06's attention backward (Z=4, H=32, fp16, not causal) a few times, for ncu:
python3 [-m kiln.run] t06_bwd_one.py TUTORIAL HEAD_DIM N_CTX. Prints the backward's ms by do_bench."""
import importlib.util
import sys

import torch
import triton

spec = importlib.util.spec_from_file_location("fused_attention_tutorial", sys.argv[1])
tut = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = tut
spec.loader.exec_module(tut)
D, N = int(sys.argv[2]), int(sys.argv[3])
# one forward config (no autotuning under ncu): 64 x 64, 3 stages, 4 warps
fwd = tut._attn_fwd
fwd.configs = [c for c in fwd.configs if (c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.num_stages,
                                          c.num_warps) == (64, 64, 3, 4)][:1]
assert fwd.configs
torch.manual_seed(0)
q, k, v = (torch.randn((4, 32, N, D), dtype=torch.float16, device="cuda", requires_grad=True)
           for _ in range(3))
o = tut.attention(q, k, v, False, 0.5, False)
do = torch.randn_like(o)
for _ in range(3):
    o.backward(do, retain_graph=True)
torch.cuda.synchronize()
print("bwd ms", triton.testing.do_bench(lambda: o.backward(do, retain_graph=True)))
