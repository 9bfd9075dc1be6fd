"""Times every autotune config of Liger's fused-MLP kernels (ops/mlp.py) one by one
(do_bench 25 + 100 ms), bench shape B=4, S=2048, dim 4096, hidden 14336, bf16.
argv[1]: comma list of fwd,dI. Prints one JSON line per config."""
import json, sys
import torch, triton
from triton.tools.tensor_descriptor import TensorDescriptor
import liger_kernel.ops.mlp as mlp

which = sys.argv[1].split(",") if len(sys.argv) > 1 else ["fwd", "dI"]
only = sys.argv[2] if len(sys.argv) > 2 else None
B, S, dim, hidden = 4, 2048, 4096, 14336
dt = torch.bfloat16
g = torch.Generator(device="cuda").manual_seed(0)
x = torch.randn(B, S, dim, device="cuda", dtype=dt, generator=g) * 0.1
wg = torch.randn(hidden, dim, device="cuda", dtype=dt, generator=g) * 0.02
wu = torch.randn(hidden, dim, device="cuda", dtype=dt, generator=g) * 0.02
bucket = mlp.get_bucket_m(B * S)


def cfg_name(c):
    k = c.kwargs
    return "BM%d BN%d BK%d G%d w%d s%d" % (k["BLOCK_M"], k["BLOCK_N"], k["BLOCK_K"],
                                         k["GROUP_SIZE_M"], c.num_warps, c.num_stages)


def desc(t, nd):
    return TensorDescriptor.from_tensor(tensor=t, block_shape=[1] * nd, padding="zero")


def digest(outs):
    """Sums of each output (poisoned with NaN before the first launch): compared across
    backends, a missed or misplaced store shows as NaN or a different sum."""
    return [round(float(t.double().sum()), 3) for t in outs]


def run(name, tuner, args, grid_of, nargs_keys, outs=()):
    for c in tuner.configs:
        cname = cfg_name(c)
        if only and only not in cname:
            continue
        nargs = dict(zip(nargs_keys, args))
        nargs.update(c.kwargs)
        c.pre_hook(nargs)
        meta = dict(c.kwargs)
        if name == "fwd":
            meta["gate_multiplier"] = 1.0
        grid = grid_of(meta)
        f = lambda: tuner.fn[grid](*args, **meta, num_warps=c.num_warps, num_stages=c.num_stages)
        try:
            for t in outs:
                t.fill_(float("nan"))
            f(); torch.cuda.synchronize()
            sums = digest(outs)
            us = triton.testing.do_bench(f, warmup=25, rep=100) * 1000
        except Exception as e:  # a config one backend cannot run
            print(json.dumps({"kernel": name, "cfg": cname, "us": None, "error": str(e)[:200]}), flush=True)
            continue
        print(json.dumps({"kernel": name, "cfg": cname, "us": us, "sums": sums}), flush=True)


if "fwd" in which:
    AGU = torch.empty(B, S, 3 * hidden, device="cuda", dtype=dt)
    A, G, U = AGU[..., :hidden], AGU[..., hidden:2 * hidden], AGU[..., 2 * hidden:]
    args = [desc(x, 3), desc(wg, 2), desc(wu, 2), desc(A, 3), desc(G, 3), desc(U, 3),
            S, dim, hidden, bucket]
    keys = ["desc_input", "desc_Wg", "desc_Wu", "desc_A", "desc_G", "desc_U"]
    tuner = mlp._swiglu_kernel_forward
    run("fwd", tuner, args + [], lambda m: (triton.cdiv(S, m["BLOCK_M"]) * triton.cdiv(hidden, m["BLOCK_N"]), B),
        keys, (AGU,))
if "dI" in which:
    dG = torch.randn(B, S, hidden, device="cuda", dtype=dt, generator=g) * 0.1
    dU = torch.randn(B, S, hidden, device="cuda", dtype=dt, generator=g) * 0.1
    dI = torch.empty(B, S, dim, device="cuda", dtype=dt)
    args = [desc(dG, 3), desc(wg, 2), desc(dU, 3), desc(wu, 2), desc(dI, 3), S, dim, hidden, bucket]
    keys = ["desc_dG", "desc_Wg", "desc_dU", "desc_Wu", "desc_dI"]
    run("dI", mlp._swiglu_kernel_backward_dI, args,
        lambda m: (triton.cdiv(S, m["BLOCK_M"]) * triton.cdiv(dim, m["BLOCK_N"]), B), keys, (dI,))

if "dGU" in which:
    # Liger runs dGU with the forward's best config (BM128 BN128 BK64 G8 w8 s3 under both).
    dO = torch.randn(B, S, dim, device="cuda", dtype=dt, generator=g) * 0.1
    wd = torch.randn(dim, hidden, device="cuda", dtype=dt, generator=g) * 0.02
    AGU = torch.randn(B, S, 3 * hidden, device="cuda", dtype=dt, generator=g) * 0.1
    G, U = AGU[..., hidden:2 * hidden], AGU[..., 2 * hidden:]
    BM, BN, BK = 128, 128, 64
    d = lambda t, shape: TensorDescriptor.from_tensor(tensor=t, block_shape=shape, padding="zero")
    dG, dU = torch.empty_like(G), torch.empty_like(U)
    args = [d(dO, [1, BM, BK]), d(wd, [BK, BN]), d(G, [1, BM, BN]), d(U, [1, BM, BN]),
            d(dG, [1, BM, BN]), d(dU, [1, BM, BN]), S, dim, hidden]
    grid = (triton.cdiv(S, BM) * triton.cdiv(hidden, BN), B)
    f = lambda: mlp._swiglu_kernel_backward_dGU[grid](*args, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
                                                      GROUP_SIZE_M=8, gate_multiplier=1.0,
                                                      down_multiplier=1.0, num_warps=8, num_stages=3)
    dG.fill_(float("nan")); dU.fill_(float("nan"))
    f(); torch.cuda.synchronize()
    print(json.dumps({"kernel": "dGU", "cfg": "BM128 BN128 BK64 G8 w8 s3", "sums": digest((dG, dU)),
                      "us": triton.testing.do_bench(f, warmup=25, rep=100) * 1000}), flush=True)
