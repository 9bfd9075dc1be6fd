#!/usr/bin/env python3
"""Real Triton files, unmodified, under Triton 3.6 and under Kiln with the same inputs.

Runs on the GPU machine (torch + triton installed, the Kiln Python package importable and
KILN_LIBRARY pointing at libkiln.so). The third-party files are never committed: they are
fetched into the git-ignored .ext/ folder and carried to the device (see docs/performance.md):

  .ext/triton-tutorials/05-layer-norm.py        Triton's tutorial as published
  .ext/flash-attention/layer_norm.py            flash_attn/ops/triton/layer_norm.py
  .ext/flash-attention/utils/{torch,library}.py the two helper modules it imports

Both files' own host code drives the kernels. For the Kiln run the module's kernel globals are
replaced by Kiln kernels compiled from the same file (kiln.jit(path).name), and
torch.library.wrap_triton -- which only accepts Triton's own kernel objects -- is made the
identity, so the same host code launches Kiln's kernels. Every case compares Kiln's outputs with
Triton's: floating outputs within tolerance, dropout masks bitwise.

  python3 test/gpu/real_files.py [--ext DIR] [--json OUT]
Prints one line per case and "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import faulthandler
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
import types

import torch
import triton
import triton.testing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kiln  # noqa: E402

DEVICE = "cuda"


def tolerance(dtype):
    return {torch.float16: (2e-2, 2e-2), torch.bfloat16: (6e-2, 6e-2)}.get(dtype, (1e-4, 1e-4))


def compare(name, got, want, results, exact=False):
    """Appends (name, ok, detail)."""
    if want is None or got is None:
        ok = got is None and want is None
        results.append((name, ok, "both None" if ok else "one side is None"))
        return
    if exact or want.dtype in (torch.bool, torch.int8, torch.int32, torch.int64, torch.uint8):
        ok = torch.equal(got, want)
        detail = "bitwise equal" if ok else f"{(got != want).sum().item()} of {want.numel()} differ"
        results.append((name, ok, detail))
        return
    atol, rtol = tolerance(want.dtype)
    g, w = got.float(), want.float()
    if torch.isnan(g).any():
        results.append((name, False, "NaN in Kiln's output"))
        return
    err = (g - w).abs().max().item()
    ok = torch.allclose(g, w, atol=atol, rtol=rtol)
    results.append((name, ok, f"max|kiln-triton|={err:.3g} (atol {atol}, rtol {rtol})"))


def load_file_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


class swap_kernels:
    """Within the block, `module.<name>` are Kiln's kernels from the same file."""

    def __init__(self, module, path, names):
        self.module, self.names = module, names
        self.kiln_mod = kiln.jit(path)
        self.saved = {}

    def __enter__(self):
        for n in self.names:
            self.saved[n] = getattr(self.module, n)
            setattr(self.module, n, getattr(self.kiln_mod, n))
        self.saved_wrap = torch.library.wrap_triton
        torch.library.wrap_triton = lambda k: k
        return self

    def __exit__(self, *exc):
        for n, v in self.saved.items():
            setattr(self.module, n, v)
        torch.library.wrap_triton = self.saved_wrap
        return False


# ----------------------------------------------------------------------------------------------
# Triton tutorial 05-layer-norm.py
# ----------------------------------------------------------------------------------------------
def tutorial(ext, results):
    path = os.path.join(ext, "triton-tutorials", "05-layer-norm.py")
    # Importing the tutorial runs its test (under Triton) and its benchmark; the benchmark is
    # made a no-op so the import stays short. The file itself is not changed.
    real_perf_report = triton.testing.perf_report
    triton.testing.perf_report = lambda *a, **k: (lambda fn: types.SimpleNamespace(run=lambda **kw: None))
    try:
        t0 = time.time()
        mod = load_file_module("tutorial_layer_norm", path)
        print(f"tutorial: imported under Triton (its own test_layer_norm passed) in {time.time()-t0:.1f}s")
    finally:
        triton.testing.perf_report = real_perf_report
    kernels = ["_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused", "_layer_norm_bwd_dwdb"]

    def run(M, N, dtype):
        torch.manual_seed(0)
        w_shape = (N,)
        weight = torch.rand(w_shape, dtype=dtype, device=DEVICE, requires_grad=True)
        bias = torch.rand(w_shape, dtype=dtype, device=DEVICE, requires_grad=True)
        x = -2.3 + 0.5 * torch.randn((M, N), dtype=dtype, device=DEVICE)
        dy = 0.1 * torch.randn_like(x)
        x.requires_grad_(True)
        y = mod.layer_norm(x, w_shape, weight, bias, 1e-5)
        y.backward(dy, retain_graph=True)
        return [y.detach().clone(), x.grad.clone(), weight.grad.clone(), bias.grad.clone()]

    for (M, N, dtype) in [(1151, 8192, torch.float16), (333, 1000, torch.float16),
                          (64, 4096, torch.bfloat16), (97, 777, torch.float32)]:
        print(f"tutorial {M}x{N} {dtype}: Triton", flush=True)
        want = run(M, N, dtype)
        print(f"tutorial {M}x{N} {dtype}: Kiln", flush=True)
        with swap_kernels(mod, path, kernels):
            got = run(M, N, dtype)
            if (M, N, dtype) == (1151, 8192, torch.float16):
                # The tutorial's own check (asserts against torch) with Kiln's kernels.
                mod.test_layer_norm(1151, 8192, torch.float16)
                results.append(("tutorial test_layer_norm(1151, 8192, fp16) on Kiln", True, "asserts passed"))
        tag = f"tutorial {M}x{N} {str(dtype)[6:]}"
        for nm, g, w in zip(["y", "dx", "dw", "db"], got, want):
            # dw/db sum M rows in fp16 through locks in a run-dependent order: as the tutorial's
            # own test does, compare those loosely.
            if nm in ("dw", "db") and dtype != torch.float32:
                ok = torch.allclose(g.float(), w.float(), atol=0.5, rtol=5e-2)
                results.append((f"{tag} {nm}", ok, f"max diff {(g.float()-w.float()).abs().max().item():.3g}"))
            else:
                compare(f"{tag} {nm}", g, w, results)


# ----------------------------------------------------------------------------------------------
# FlashAttention flash_attn/ops/triton/layer_norm.py
# ----------------------------------------------------------------------------------------------
def flash_attention_module(ext):
    pkg = tempfile.mkdtemp(prefix="fa-")
    src = os.path.join(ext, "flash-attention")
    for d in ["flash_attn", "flash_attn/ops", "flash_attn/ops/triton", "flash_attn/utils"]:
        os.makedirs(os.path.join(pkg, d), exist_ok=True)
        open(os.path.join(pkg, d, "__init__.py"), "w").close()
    shutil.copy(os.path.join(src, "layer_norm.py"), os.path.join(pkg, "flash_attn/ops/triton/layer_norm.py"))
    for m in ["torch.py", "library.py"]:
        shutil.copy(os.path.join(src, "utils", m), os.path.join(pkg, "flash_attn/utils", m))
    sys.path.insert(0, pkg)
    import flash_attn.ops.triton.layer_norm as fa  # noqa: E402
    return fa, os.path.join(pkg, "flash_attn/ops/triton/layer_norm.py")


def flash_attention(ext, results, case_range=(0, 1000)):
    fa, path = flash_attention_module(ext)
    kernels = ["_layer_norm_fwd_1pass_kernel", "_layer_norm_bwd_kernel"]

    def case(name, M, N, dtype, **opts):
        def run():
            torch.manual_seed(1)
            x = torch.randn(M, N, dtype=dtype, device=DEVICE, requires_grad=True)
            w = (1 + 0.1 * torch.randn(N, dtype=dtype, device=DEVICE)).requires_grad_(True)
            b = (0.1 * torch.randn(N, dtype=dtype, device=DEVICE)).requires_grad_(True) if opts.get("bias", True) else None
            kw = dict(eps=1e-6, dropout_p=opts.get("dropout_p", 0.0), prenorm=opts.get("prenorm", False),
                      residual_in_fp32=opts.get("residual_in_fp32", False), is_rms_norm=opts.get("rms", False),
                      return_dropout_mask=opts.get("dropout_p", 0.0) > 0)
            res = torch.randn(M, N, dtype=dtype, device=DEVICE, requires_grad=True) if opts.get("residual") else None
            rowscale = (torch.rand(M, dtype=dtype, device=DEVICE) + 0.5) if opts.get("rowscale") else None
            x1 = w1 = b1 = None
            if opts.get("x1"):
                x1 = torch.randn(M, N, dtype=dtype, device=DEVICE, requires_grad=True)
                w1 = (1 + 0.1 * torch.randn(N, dtype=dtype, device=DEVICE)).requires_grad_(True)
                b1 = (0.1 * torch.randn(N, dtype=dtype, device=DEVICE)).requires_grad_(True)
            out = fa.layer_norm_fn(x, w, b, residual=res, x1=x1, weight1=w1, bias1=b1, rowscale=rowscale, **kw)
            outs = list(out) if isinstance(out, tuple) else [out]
            # Backward through every floating output with fixed upstream gradients.
            grads_in = [t for t in (x, w, b, res, x1, w1, b1) if t is not None]
            loss = 0
            g = torch.Generator(device=DEVICE).manual_seed(7)
            for o in outs:
                if o is not None and o.is_floating_point() and o.requires_grad:
                    loss = loss + (o.float() * torch.randn(o.shape, device=DEVICE, generator=g)).sum()
            grads = torch.autograd.grad(loss, grads_in, allow_unused=True)
            return [o.detach() if isinstance(o, torch.Tensor) else o for o in outs], list(grads)

        print(f"flash-attn {name} {M}x{N} {dtype}: Triton", flush=True)
        want_out, want_grad = run()
        print(f"flash-attn {name} {M}x{N} {dtype}: Kiln", flush=True)
        with swap_kernels(fa, path, kernels):
            got_out, got_grad = run()
        tag = f"flash-attn {name} {M}x{N} {str(dtype)[6:]}"
        for i, (g, w) in enumerate(zip(got_out, want_out)):
            compare(f"{tag} out[{i}]", g, w, results)
        for i, (g, w) in enumerate(zip(got_grad, want_grad)):
            if w is not None and w.dim() == 1 and dtype != torch.float32:
                # dw/db: per-SM fp32 partials summed by torch; allow for rounding of the sum.
                ok = torch.allclose(g.float(), w.float(), atol=5e-2, rtol=2e-2)
                results.append((f"{tag} grad[{i}]", ok, f"max diff {(g.float()-w.float()).abs().max().item():.3g}"))
            else:
                compare(f"{tag} grad[{i}]", g, w, results)

    cases = [("layernorm", 1024, 4096, dtype, {}) for dtype in
             (torch.float16, torch.bfloat16, torch.float32)]
    cases += [
        ("no-bias", 512, 1000, torch.float16, dict(bias=False)),
        ("residual+prenorm", 333, 2048, torch.float16, dict(residual=True, prenorm=True)),
        ("residual fp32", 256, 1536, torch.bfloat16,
         dict(residual=True, prenorm=True, residual_in_fp32=True)),
        ("rmsnorm", 512, 4096, torch.float16, dict(rms=True)),
        ("dropout", 300, 2048, torch.float16, dict(dropout_p=0.1)),
        ("dropout+residual", 128, 8192, torch.bfloat16,
         dict(dropout_p=0.2, residual=True, prenorm=True)),
        ("rowscale", 200, 1024, torch.float16, dict(rowscale=True, dropout_p=0.1)),
        ("x1/w1/b1", 256, 2048, torch.float16, dict(x1=True, dropout_p=0.1, residual=True,
                                                    prenorm=True)),
        ("rmsnorm+x1", 256, 2048, torch.bfloat16, dict(x1=True, rms=True)),
    ]
    lo, hi = case_range
    for name, M, N, dtype, opts in cases[lo:hi]:
        case(name, M, N, dtype, **opts)
    if hi < len(cases):
        return

    # recompute_output (LayerNormLinearFn's backward path), called as its host code does.
    torch.manual_seed(3)
    M, N, dtype = 512, 2048, torch.float16
    x = torch.randn(M, N, dtype=dtype, device=DEVICE)
    w = torch.randn(N, dtype=dtype, device=DEVICE)
    b = torch.randn(N, dtype=dtype, device=DEVICE)
    dy = torch.randn(M, N, dtype=dtype, device=DEVICE)
    _, _, mean, rstd, *_ = fa._layer_norm_fwd(x, w, b, 1e-6)
    want = fa._layer_norm_bwd(dy, x, w, b, 1e-6, mean, rstd, recompute_output=True)
    with swap_kernels(fa, path, kernels):
        got = fa._layer_norm_bwd(dy, x, w, b, 1e-6, mean, rstd, recompute_output=True)
    for i, (g, w_) in enumerate(zip(got, want)):
        if isinstance(w_, torch.Tensor) and w_.dim() == 1:
            ok = torch.allclose(g.float(), w_.float(), atol=5e-2, rtol=2e-2)
            results.append((f"flash-attn recompute_output out[{i}]", ok, "dw/db"))
        else:
            compare(f"flash-attn recompute_output out[{i}]", g, w_, results)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ext", default=os.path.join(ROOT, ".ext"))
    ap.add_argument("--json")
    ap.add_argument("--only", choices=["tutorial", "flash-attention"])
    ap.add_argument("--fa-cases", default="0:1000",
                    help="slice of the FlashAttention cases to run (Triton autotunes each "
                         "case's 2 kernels over 6 configs: ~40 s a case)")
    ap.add_argument("--stall-seconds", type=float, default=60,
                    help="print every thread's stack when a case runs this long")
    a = ap.parse_args()
    # A stuck launch or lock shows up as a stack dump instead of a silent timeout.
    faulthandler.dump_traceback_later(a.stall_seconds, repeat=True)
    results = []
    fa_range = tuple(int(v) for v in a.fa_cases.split(":"))
    runs = [("tutorial", lambda: tutorial(a.ext, results)),
            ("flash-attention", lambda: flash_attention(a.ext, results, fa_range))]
    for name, fn in runs:
        if a.only and a.only != name:
            continue
        try:
            fn()
        except Exception as e:  # one file's failure must not hide the other's results
            traceback.print_exc()
            results.append((f"{name}: exception", False, f"{type(e).__name__}: {e}"))
    for name, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    npass = sum(1 for r in results if r[1])
    print(f"{npass} passed, {len(results) - npass} failed")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"case": n, "ok": o, "detail": d} for n, o, d in results], f, indent=1)
    sys.exit(0 if npass == len(results) else 1)


if __name__ == "__main__":
    main()
