"""Attention forward with host descriptors (q, k, v, o), its O stored through o_desc after the
loop: every config (or those matching any of the comma-separated argv[1]) timed (do_bench, fp16, batch 4, 32 heads, N_CTX 4096), checked against
torch's SDPA. Prints one JSON line per config. Session 50's A/B of epilogue TMA stores."""
import json, sys
import torch, triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def attn_fwd(q_desc, k_desc, v_desc, o_desc, m_ptr, sm_scale, N_CTX,
             HEAD_DIM: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    row0 = off_hz * N_CTX
    q = q_desc.load([row0 + start_m * BM, 0])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.full([BM], 1.0, tl.float32)
    acc = tl.zeros([BM, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BN):
        k = k_desc.load([row0 + start_n, 0])
        qk = tl.dot(q, k.T)
        m_new = tl.maximum(m_i, tl.max(qk, 1) * scale)
        p = tl.math.exp2(qk * scale - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([row0 + start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(m_ptr + row0 + start_m * BM + tl.arange(0, BM), m_i + tl.math.log2(l_i))
    o_desc.store([row0 + start_m * BM, 0], acc.to(tl.float16))


def main():
    Z, H, N = 4, 32, 4096
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    for D in (64, 128):
        torch.manual_seed(0)
        q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=0.5)
        rows = Z * H * N
        for BM in (64, 128):
            for BN in (32, 64, 128):
                for s in (2, 3, 4):
                    for w in (4, 8):
                        if BM * BN < 128 * 128 and w == 8:
                            continue
                        cfg = f"D{D} BM{BM} BN{BN} s{s} w{w}"
                        if only and not any(o in cfg for o in only.split(",")):
                            continue
                        o = torch.full_like(q, float("nan"))
                        m = torch.empty(Z, H, N, device="cuda", dtype=torch.float32)
                        d = [TensorDescriptor(t, [rows, D], [D, 1], [bm, D])
                             for t, bm in ((q, BM), (k, BN), (v, BN), (o, BM))]
                        grid = (N // BM, Z * H)
                        fn = lambda: attn_fwd[grid](*d, m, 0.5, N, HEAD_DIM=D, BM=BM, BN=BN,
                                                    num_warps=w, num_stages=s)
                        try:
                            fn()
                            err = (o.float() - ref.float()).abs().max().item()
                            ms = triton.testing.do_bench(fn, warmup=25, rep=100)
                            tf = 4.0 * Z * H * N * N * D * 1e-12 / (ms * 1e-3)
                            print(json.dumps(dict(cfg=cfg, us=round(ms * 1e3, 1), tflops=round(tf, 1),
                                                  err=err)), flush=True)
                        except Exception as e:
                            print(json.dumps(dict(cfg=cfg, error=str(e)[:200])), flush=True)


main()
