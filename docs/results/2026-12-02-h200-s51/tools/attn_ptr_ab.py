"""Attention forward by pointers (examples/matmul/attention_fwd.py, unmodified), HEAD_DIM 64 and
128, every (BLOCK_M, BLOCK_N, num_stages, num_warps) config, causal and not: timed (do_bench, fp16,
batch 4, 32 heads, N_CTX 4096), checked against torch's SDPA (output NaN-poisoned). One JSON line
per config, under whichever `triton` runs it (python3 or python3 -m kiln.run). Session 51."""
import importlib.util, json, os, sys
import torch, triton

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("attention_example",
                                              os.path.join(ROOT, "examples/matmul/attention_fwd.py"))
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
attn_fwd = mod.attn_fwd


def main():
    Z, H, N = 4, 32, 4096
    only = sys.argv[1].split(",") if len(sys.argv) > 1 else []
    for D, causal in ((64, False), (64, True), (128, False), (128, True)):
        torch.manual_seed(0)
        q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
        for BM in (64, 128):
            for BN in (32, 64, 128):
                for s in (2, 3, 4):
                    for w in (4, 8):
                        cfg = f"D{D} C{int(causal)} BM{BM} BN{BN} s{s} w{w}"
                        if only and not any(o in cfg for o in only):
                            continue
                        o = torch.full_like(q, float("nan"))
                        grid = (N // BM, Z * H)
                        fn = lambda: attn_fwd[grid](q, k, v, 0.5, o, *q.stride(), *k.stride(),
                                                    *v.stride(), *o.stride(), H, N, HEAD_DIM=D,
                                                    BLOCK_M=BM, BLOCK_N=BN, CAUSAL=causal,
                                                    num_warps=w, num_stages=s)
                        try:
                            fn()
                            err = (o.float() - ref.float()).abs().max().item()
                            ms = triton.testing.do_bench(fn, warmup=25, rep=100)
                            print(json.dumps(dict(cfg=cfg, us=round(ms * 1e3, 1), err=err)), flush=True)
                        except Exception as e:
                            print(json.dumps(dict(cfg=cfg, error=str(e)[:200])), flush=True)


main()
