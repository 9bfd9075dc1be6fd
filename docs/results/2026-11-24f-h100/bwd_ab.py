"""A/B of backward variants (backward alone, GB/s by 3|x| (+|dy1|)), checked against fp64."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..")
sys.path.insert(0, os.path.join(root, "bench"))
import torch
import layernorm_host as lh
import layernorm_best as lb
import kiln
ex = os.path.join(root, "examples", "layernorm")
new = kiln.jit(os.path.join(ex, "layer_norm_fast.py"))
old = kiln.jit(os.path.join(here, "layer_norm_fast_old.py"))
split = kiln.jit(os.path.join(ex, "layer_norm_split.py"))
flush = lb.Flush("write")
for dt in (torch.float16, torch.bfloat16):
    for M, N, second in ((65536, 16384, False), (4096, 16384, False), (65536, 12288, False),
                         (65536, 16384, True), (4096, 16384, True), (65536, 10000, True)):
        torch.manual_seed(0)
        x = torch.randn(M, N, device="cuda", dtype=dt)
        w = torch.rand(N, device="cuda", dtype=dt) + 0.5
        b = torch.rand(N, device="cuda", dtype=dt)
        dy = torch.randn_like(x)
        kw = {}
        if second:
            kw = dict(w1=torch.rand(N, device="cuda", dtype=dt) + 0.5,
                      b1=torch.rand(N, device="cuda", dtype=dt), dy1=torch.randn_like(x))
        base = lh.FastNorm(new, split_module=split)
        f = base.forward(x, w, b, 1e-5, w1=kw.get("w1"), b1=kw.get("b1"))
        ref = lh.reference(x, w, b, 1e-5, dy, w1=kw.get("w1"), b1=kw.get("b1"), dy1=kw.get("dy1")) if M * N <= 4096 * 16384 else None
        cands = [("old-heur", old, None), ("new-heur", new, None)]
        for ch in (4096, 8192, 16384):
            for wp in (16, 32):
                if second or ch >= 8192:
                    cands.append((f"new-cols{ch}/{wp}", new, {"chunk": ch, "warps": wp}))
        if not second:
            cands.append(("wide/16", new, {"wide": True, "warps": 16}))
        nbytes = x.numel() * x.element_size() * (5 if second else 3)
        for name, mod, tune in cands:
            norm = lh.FastNorm(mod, tune_bwd=tune, split_module=split)
            fn = lambda: norm.backward(dy, x, w, b, f["mean"], f["rstd"], **{k: kw[k] for k in ("w1", "b1", "dy1") if k in kw})
            try:
                out = fn()
                err = ""
                if ref is not None:
                    tol = lh.tolerance(dt)
                    errs = {k: lh.max_rel_err(out[k], ref[k], floor=ref.get("dx_floor", 0.0) if k == "dx" else 0.0, tol=tol) for k in ("dx", "dw", "db", "dw1", "db1") if out.get(k) is not None and k in ref}
                    bad = {k: v for k, v in errs.items() if v > tol}
                    err = f" WRONG {bad}" if bad else " ok"
                ms = lb.time_it(fn, flush, 3, 15, 10)
                print(f"{str(dt)[6:]} {M}x{N} second={second} {name}: {nbytes / ms / 1e6:.0f} GB/s{err}", flush=True)
            except Exception as e:
                print(f"{str(dt)[6:]} {M}x{N} second={second} {name}: {type(e).__name__} {str(e)[:200]}", flush=True)
