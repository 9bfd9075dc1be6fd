"""cols chunk 16384 vs 8192 (vs chunked) for fp32 and for every dx option (backward alone)."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
sys.path.insert(0, os.path.join(root, "bench"))
import torch
import layernorm_host as lh
import layernorm_best as lb
import kiln
ex = os.path.join(root, "examples", "layernorm")
new = kiln.jit(os.path.join(ex, "layer_norm_fast.py"))
flush = lb.Flush("write")
for dt, M, N, opts in ((torch.float32, 32768, 16384, False), (torch.float32, 4096, 16384, False),
                       (torch.float32, 32768, 32768, False), (torch.float16, 65536, 16384, True),
                       (torch.float16, 4096, 16384, True), (torch.bfloat16, 65536, 32768, False),
                       (torch.bfloat16, 4096, 32768, False), (torch.float16, 65536, 32768, True)):
    x = torch.randn(M, N, device="cuda", dtype=dt)
    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    b = torch.rand(N, device="cuda", dtype=dt)
    dy = torch.randn_like(x)
    f = lh.FastNorm(new).forward(x, w, b, 1e-5)
    kw = {}
    if opts:
        kw = dict(dresidual=torch.randn_like(x), store_dresidual=True, dropout_p=0.1, seed=3,
                  rowscale=torch.rand(M, device="cuda", dtype=dt))
    nbytes = x.numel() * x.element_size() * (3 + (3 if opts else 0))
    line = []
    for name, tune in (("heur", None), ("cols16384", {"cols": True, "chunk": 16384}),
                       ("cols8192", {"cols": True, "chunk": 8192}), ("chunked", {"no_columns": True})):
        norm = lh.FastNorm(new, tune_bwd=tune)
        fn = lambda: norm.backward(dy, x, w, b, f["mean"], f["rstd"], **kw)
        try:
            ms = lb.time_it(fn, flush, 3, 20, 10)
            line.append(f"{name}={nbytes / ms / 1e6:.0f}")
        except Exception as e:
            line.append(f"{name}={type(e).__name__}:{str(e)[:80]}")
    print(f"{str(dt)[6:]} {M}x{N} opts={opts}: " + "  ".join(line), flush=True)
