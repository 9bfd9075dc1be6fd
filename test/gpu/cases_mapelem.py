"""tl.map_elementwise under Triton 3.6 and Kiln from the same file
(test/Frontend/map-elementwise.py): a per-element branch (selu), a per-element
while loop (Collatz steps) and pack=2 with two results, compared bitwise."""
import os

import torch

from kcompare import DEV, HERE, exact, gen, run_case

PATH = os.path.join(os.path.dirname(HERE), "Frontend", "map-elementwise.py")


def cases(results):
    n = 1000
    run_case(results, "map_elementwise selu fp32 (branch per element)", PATH, "selu_k",
             ((n + 255) // 256,),
             lambda: [torch.randn(n, device=DEV, generator=gen(1)) * 3,
                      torch.tensor([1.6732632], device=DEV), torch.empty(n, device=DEV), n],
             [2], dict(BLOCK=256), exact)
    run_case(results, "map_elementwise Collatz steps int32 (while loop per element)", PATH,
             "steps_k", ((n + 127) // 128,),
             lambda: [torch.randint(1, 10000, (n,), device=DEV, generator=gen(2),
                                    dtype=torch.int32),
                      torch.empty(n, device=DEV, dtype=torch.int32), n],
             [1], dict(BLOCK=128), exact)
    run_case(results, "map_elementwise pack=2, fp16 and fp32, two results", PATH, "pairs_k",
             (1,),
             lambda: [torch.randn(1024, device=DEV, generator=gen(3)).half(),
                      torch.randn(1024, device=DEV, generator=gen(4)),
                      torch.empty(1024, device=DEV, dtype=torch.float16),
                      torch.empty(1024, device=DEV)],
             [2, 3], dict(BLOCK=1024), exact)
