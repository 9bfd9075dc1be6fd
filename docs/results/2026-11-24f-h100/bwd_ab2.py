"""Focused A/B: cols chunk 16384 vs wide, backward alone, 3 alternating rounds."""
import os, sys, statistics
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
sys.path.insert(0, os.path.join(root, "bench"))
import torch
import layernorm_host as lh
import layernorm_best as lb
import kiln
ex = os.path.join(root, "examples", "layernorm")
new = kiln.jit(os.path.join(ex, "layer_norm_fast.py"))
split = kiln.jit(os.path.join(ex, "layer_norm_split.py"))
for kind in ("write", "read"):
    flush = lb.Flush(kind)
    for dt in (torch.float16, torch.bfloat16):
        for M, N in ((65536, 16384), (4096, 16384), (65536, 12288)):
            x = torch.randn(M, N, device="cuda", dtype=dt)
            w = torch.rand(N, device="cuda", dtype=dt) + 0.5
            b = torch.rand(N, device="cuda", dtype=dt)
            dy = torch.randn_like(x)
            f = lh.FastNorm(new).forward(x, w, b, 1e-5)
            nbytes = x.numel() * x.element_size() * 3
            res = {}
            for rnd in range(3):
                for name, tune in (("cols16384/16", {"chunk": 16384, "warps": 16}),
                                   ("wide/16", {"wide": True, "warps": 16}),
                                   ("cols8192/16", {"chunk": 8192, "warps": 16})):
                    norm = lh.FastNorm(new, tune_bwd=tune, split_module=split)
                    fn = lambda: norm.backward(dy, x, w, b, f["mean"], f["rstd"])
                    ms = lb.time_it(fn, flush, 3, 30, 10)
                    res.setdefault(name, []).append(nbytes / ms / 1e6)
            print(kind, str(dt)[6:], f"{M}x{N}", "  ".join(f"{k}: {' '.join(f'{v:.0f}' for v in vs)}" for k, vs in res.items()), flush=True)
