"""cols at other N (backward alone) against the heuristic; checks vs fp64 at small M."""
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
dt = torch.float16
for M, N, second in ((65536, 8192, False), (4096, 8192, False), (65536, 8192, True),
                     (65536, 32768, False), (4096, 32768, False), (4096, 65536, False),
                     (4096, 131072, False), (65536, 32768, True), (4096, 32768, True)):
    x = torch.randn(M, N, device="cuda", dtype=dt)
    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    b = torch.rand(N, device="cuda", dtype=dt)
    dy = torch.randn_like(x)
    kw = {}
    if second:
        kw = dict(w1=torch.rand(N, device="cuda", dtype=dt) + 0.5,
                  b1=torch.rand(N, device="cuda", dtype=dt), dy1=torch.randn_like(x))
    f = lh.FastNorm(new).forward(x, w, b, 1e-5, w1=kw.get("w1"), b1=kw.get("b1"))
    xs = slice(0, 512)
    ref = lh.reference(x[xs], w, b, 1e-5, dy[xs], w1=kw.get("w1"), b1=kw.get("b1"),
                       dy1=kw["dy1"][xs] if second else None)
    nbytes = x.numel() * x.element_size() * (5 if second else 3)
    cands = [("heur", None)]
    for ch in (4096, 8192, 16384):
        for wp in (8, 16, 32):
            if ch >= 32 * wp * 8 and ch <= max(8192, N):
                cands.append((f"cols{ch}/{wp}", {"cols": True, "chunk": ch, "warps": wp}))
    line = []
    for name, tune in cands:
        norm = lh.FastNorm(new, tune_bwd=tune)
        extra = {k: kw[k] for k in ("w1", "b1", "dy1") if k in kw}
        try:
            small = norm.backward(dy[xs], x[xs], w, b, f["mean"][xs], f["rstd"][xs],
                                  **{k: (v[xs] if k == "dy1" else v) for k, v in extra.items()})
            tol = lh.tolerance(dt)
            bad = {k: round(lh.max_rel_err(small[k], ref[k], floor=ref.get("dx_floor", 0.0) if k == "dx" else 0.0, tol=tol), 4)
                   for k in ("dx", "dw", "db", "dw1", "db1") if small.get(k) is not None and k in ref}
            bad = {k: v for k, v in bad.items() if v > tol}
            fn = lambda: norm.backward(dy, x, w, b, f["mean"], f["rstd"], **extra)
            ms = lb.time_it(fn, flush, 3, 20, 10)
            line.append(f"{name}={nbytes / ms / 1e6:.0f}" + (f"WRONG{bad}" if bad else ""))
        except Exception as e:
            line.append(f"{name}={type(e).__name__}:{str(e)[:80]}")
    print(f"{M}x{N} second={second}: " + "  ".join(line), flush=True)
