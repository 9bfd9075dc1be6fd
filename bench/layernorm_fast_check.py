#!/usr/bin/env python3
"""Every variant and option of examples/layernorm/layer_norm_fast.py on the GPU, through
Kiln's Python package, against an fp64 PyTorch reference (autograd over the whole fused
computation: rowscale, dropout, residual, LayerNorm/RMSNorm, second weight/bias output).

Outputs and scratch start as NaN (layernorm_host.POISON), so an element a kernel leaves
unwritten fails. Dropout's mask is read back from residual_out (a dropped element is exactly
the residual) and its kept fraction must be 1 - p within 6 sigma. dw/db must be bitwise
identical over 20 runs (no atomics, fixed reduction
order). Shapes cover the one-pass forward (N <= 16384), the chunked forward (N > 16384), the
one-pass backward (N <= 8192) and the chunked backward (N > 8192), plus odd sizes.

    python3 bench/layernorm_fast_check.py [--quick] [--under-triton]

Prints one line per case and `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import itertools
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.join(ROOT, "python"))  # after PYTHONPATH (the device bundle)
sys.path.insert(0, os.path.join(ROOT, "bench"))
if "KILN_LIBRARY" not in os.environ and os.path.exists(
        os.path.join(ROOT, "build", "lib", "libkiln.so")):
    os.environ["KILN_LIBRARY"] = os.path.join(ROOT, "build", "lib", "libkiln.so")

import torch  # noqa: E402

import layernorm_host as lh  # noqa: E402

KERNELS = os.path.join(ROOT, "examples", "layernorm", "layer_norm_fast.py")
COOP_KERNELS = os.path.join(ROOT, "examples", "layernorm", "layer_norm_coop.py")
SHAPES = [(1, 1), (3, 777), (7, 3000), (64, 512), (1000, 1024), (257, 4096), (33, 8192),
          (17, 16384), (5, 16385), (4, 65537), (3, 100000), (2, 262144), (300, 1536)]
QUICK_SHAPES = [(1, 1), (3, 777), (7, 3000), (257, 4096), (17, 16384), (5, 16385), (4, 65537),
                (2, 262144)]
DTYPES = [torch.float16, torch.bfloat16, torch.float32]
# Launch choices forced for the variant cases: (label, tune_fwd, tune_bwd).
VARIANTS = [
    ("pipelined", {"pipe": 1, "rows": 1}, {"pipe": 1, "per_sm": 1}),
    ("pipelined x2", {"pipe": 2}, {"pipe": 1, "per_sm": 2}),
    ("chunked pipelined", {"chunk": 2048, "warps": 4, "pipe": 1}, {}),
    ("coop fwd", {"coop": 2048, "warps": 8}, {}),
    ("coop fwd 8192 no ahead", {"coop": 8192, "warps": 16, "ahead": 0}, {}),
    ("coop bwd", {}, {"coop": 2048, "warps": 8}),
    ("coop bwd 8192", {}, {"coop": 8192, "warps": 16}),
    ("chunked bwd", {}, {"no_coop": 1}),
    # The columns backward forced where the plan does not pick it (dx
    # options, fp32 at 8192, rows of several chunks).
    ("columns one chunk", {}, {"cols": True, "chunk": 16384}),
    ("columns 8192", {}, {"cols": True, "chunk": 8192}),
]
VARIANT_SHAPES = [(1, 1), (3, 777), (7, 3000), (300, 1536), (257, 4096), (33, 8192),
                  (17, 16384), (5, 16385), (4, 65537)]


def run_case(norm, M, N, dtype, opts, results):
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(M * 1000003 + N)
    x = (-2.3 + 0.5 * torch.randn((M, N), device=dev, generator=g)).to(dtype)
    w = torch.rand((N,), device=dev, generator=g).to(dtype)
    b = torch.rand((N,), device=dev, generator=g).to(dtype) if opts["bias"] else None
    dy = (0.1 * torch.randn((M, N), device=dev, generator=g)).to(dtype)
    res = (torch.randn((M, N), device=dev, generator=g).to(dtype)
           if opts["residual"] else None)
    rs = (0.5 + torch.rand((M,), device=dev, generator=g)) if opts["rowscale"] else None
    p = 0.25 if opts["dropout"] else 0.0
    seed = 1234 + N
    w1 = torch.rand((N,), device=dev, generator=g).to(dtype) if opts["w1"] else None
    b1 = torch.rand((N,), device=dev, generator=g).to(dtype) if opts["w1"] else None
    dy1 = (0.1 * torch.randn((M, N), device=dev, generator=g)).to(dtype) if opts["w1"] else None
    dres = ((0.1 * torch.randn((M, N), device=dev, generator=g)).to(dtype)
            if opts["residual"] else None)
    rms = opts["rms"]
    eps = 1e-5

    f = norm.forward(x, w, b, eps, rms=rms, residual=res, dropout_p=p, seed=seed,
                     rowscale=rs, w1=w1, b1=b1)
    xin = f["residual_out"] if f["residual_out"] is not None else x
    bw = norm.backward(dy, xin, w, b, f["mean"], f["rstd"], rms=rms, dresidual=dres,
                       store_dresidual=res is not None, dropout_p=p, seed=seed,
                       rowscale=rs, w1=w1, b1=b1, dy1=dy1)
    mask = lh.dropout_keep_mask(f["residual_out"], res) if p > 0 else None
    if mask is not None and M * N >= 1000:
        kept = mask.float().mean().item()
        sigma = (p * (1 - p) / (M * N)) ** 0.5
        if abs(kept - (1 - p)) > 6 * sigma:
            results.append((f"{M}x{N} dropout rate", False, f"kept {kept:.4f}, want {1 - p}"))
    ref = lh.reference(x, w, b, eps, dy, rms=rms, residual=res, dropout_mask=mask,
                       dropout_p=p, rowscale=rs, w1=w1, b1=b1, dy1=dy1, dresidual=dres,
                       stored_dtype=(f["residual_out"].dtype
                                     if f["residual_out"] is not None else None))
    tol = lh.tolerance(dtype)
    errs = {}
    pairs = [("y", f["y"], ref["y"]), ("rstd", f["rstd"], ref["rstd"]),
             ("dx", bw["dx"], ref["dx"]), ("dw", bw["dw"], ref["dw"])]
    if not rms:
        pairs.append(("mean", f["mean"], ref["mean"]))
    if b is not None:
        pairs.append(("db", bw["db"], ref["db"]))
    if w1 is not None:
        pairs += [("y1", f["y1"], ref["y1"]), ("dw1", bw["dw1"], ref["dw1"]),
                  ("db1", bw["db1"], ref["db1"])]
    if f["residual_out"] is not None:
        pairs.append(("residual_out", f["residual_out"], ref["residual_out"]))
    if res is not None:
        pairs.append(("dresidual_in", bw["dresidual_in"], ref["dresidual_in"]))
    floors = {"dx": ref["dx_floor"], "dresidual_in": ref["dresidual_in_floor"]}
    for name, got, want in pairs:
        errs[name] = lh.max_rel_err(got, want, floors.get(name, 0.0), tol)
    bad = {k: v for k, v in errs.items() if not v <= tol}
    # Determinism: dw/db bitwise equal over 20 runs (one run for the largest rows).
    runs = 20 if M * N <= (1 << 22) else 3
    det = True
    for _ in range(runs - 1):
        again = norm.backward(dy, xin, w, b, f["mean"], f["rstd"], rms=rms, dresidual=dres,
                              store_dresidual=res is not None, dropout_p=p, seed=seed,
                              rowscale=rs, w1=w1, b1=b1, dy1=dy1)
        for k in ("dw", "db", "dw1", "db1"):
            if bw[k] is not None and not torch.equal(bw[k], again[k]):
                det = False
    fwd_kernel = lh.plan_forward(M, N, norm.tune_fwd, norm.sms,
                                 lean=f["residual_out"] is None and w1 is None,
                                 fp32=dtype == torch.float32,
                                 bf16=dtype == torch.bfloat16)[0]
    name = (f"{M}x{N} {str(dtype)[6:]} " +
            ",".join(k for k, v in opts.items() if v) + f" [fwd {fwd_kernel}, "
            f"bwd {lh.plan_backward(M, N, norm.sms)['variant']}]")
    ok = not bad and det
    detail = ("max rel err " + " ".join(f"{k}={v:.2g}" for k, v in errs.items()) +
              ("" if det else "  NOT DETERMINISTIC"))
    results.append((name, ok, detail))
    print(("PASS " if ok else "FAIL ") + name + "  " + detail, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--under-triton", action="store_true",
                    help="run the same kernel file under Triton instead of Kiln")
    ap.add_argument("--variants", default=None,
                    help="only these forced variants (comma-separated labels, e.g. "
                         "'coop bwd 8192'), without the default-plan cases")
    a = ap.parse_args()
    labels = [v[0] for v in VARIANTS]
    chosen = None if a.variants is None else [v.strip() for v in a.variants.split(",")]
    if chosen is not None and not all(v in labels for v in chosen):
        ap.error(f"--variants {a.variants}: unknown {[v for v in chosen if v not in labels]} "
                 f"(known: {', '.join(labels)})")
    if a.under_triton:
        import importlib.util
        def load(name, path):
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
        module = load("layer_norm_fast", KERNELS)
        coop_mod = load("layer_norm_coop", COOP_KERNELS)
    else:
        import kiln
        module = kiln.jit(KERNELS)
        coop_mod = kiln.jit(COOP_KERNELS)
    lh.POISON = True
    norm = lh.FastNorm(module, coop_module=coop_mod)
    results = []
    t0 = time.time()
    plain = dict(rms=False, bias=True, residual=False, dropout=False, rowscale=False, w1=False)
    option_sets = [plain, dict(plain, rms=True, bias=False), dict(plain, bias=False),
                   dict(plain, residual=True), dict(plain, dropout=True),
                   dict(plain, rowscale=True), dict(plain, w1=True),
                   dict(rms=False, bias=True, residual=True, dropout=True, rowscale=True, w1=True),
                   dict(rms=True, bias=False, residual=True, dropout=True, rowscale=False,
                        w1=True)]
    shapes = QUICK_SHAPES if a.quick else SHAPES
    for (M, N), dtype in itertools.product(shapes if chosen is None else [], DTYPES):
        for opts in (option_sets if (M, N) in QUICK_SHAPES else option_sets[:2]):
            try:
                run_case(norm, M, N, dtype, opts, results)
            except Exception as e:  # noqa: BLE001
                results.append((f"{M}x{N} {dtype} {opts}", False, f"{type(e).__name__}: {e}"))
                print(f"FAIL {M}x{N} {dtype} {opts}: {type(e).__name__}: {e}", flush=True)
    # The pipelined kernels (whatever the plan picks by default): forced on
    # every shape they apply to, plain and with every option.
    for label, tf, tb in VARIANTS:
        if chosen is not None and label not in chosen:
            continue
        vnorm = lh.FastNorm(module, tune_fwd=tf, tune_bwd=tb, coop_module=coop_mod)
        for (M, N), dtype in itertools.product(VARIANT_SHAPES, DTYPES):
            if tf.get("rows") and lh.next_pow2(N) > lh.FWD_ONE_PASS_MAX:
                continue
            for opts in (option_sets[0], option_sets[1], option_sets[7], option_sets[8]):
                try:
                    print(f"[{label}]", end=" ")
                    run_case(vnorm, M, N, dtype, opts, results)
                except Exception as e:  # noqa: BLE001
                    results.append((f"{label} {M}x{N} {dtype}", False,
                                    f"{type(e).__name__}: {e}"))
                    print(f"FAIL {label} {M}x{N} {dtype} {opts}: {type(e).__name__}: {e}",
                          flush=True)
    npass = sum(1 for r in results if r[1])
    print(f"{npass} passed, {len(results) - npass} failed ({time.time() - t0:.0f} s)")
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
