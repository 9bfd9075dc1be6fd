"""lightllm's token_att1 (an fp16 `tl.sum(q[None, :] * k, 1)`: Triton sums fp16 products in
fp16) against an fp64 reference, under whichever `triton` is active: the bench's checksums
differed, and this says whether either compiler is further from the exact result."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench"))
import lightllm_bench as lb  # noqa: E402

m = lb.load(lb.K + "token_attention_nopad_att1")
torch.manual_seed(0)
dev, H, D = "cuda", lb.HEADS, lb.HEAD_DIM
lens = lb.decode_lens()[:8]
starts = [sum(lens[:i]) for i in range(len(lens))]
total = sum(lens)
req = torch.zeros((lb.MAX_REQUESTS + 1, lb.MAX_LEN), dtype=torch.int32, device=dev)
for r, (s, n) in enumerate(zip(starts, lens)):
    req[r, :n] = torch.arange(s, s + n, dtype=torch.int32, device=dev)
q = torch.randn(len(lens), H, D, device=dev).half()
k = torch.randn(total + 1, H, D, device=dev).half()
att = torch.full((H, total), float("nan"), device=dev)
m.token_att_fwd(q, k, att, req, torch.arange(len(lens), dtype=torch.int32, device=dev),
                torch.tensor(starts, dtype=torch.int32, device=dev),
                torch.tensor(lens, dtype=torch.int32, device=dev), max(lens))
ref = torch.empty(H, total, dtype=torch.float64, device=dev)
for b, (s, n) in enumerate(zip(starts, lens)):
    ref[:, s:s + n] = torch.einsum("hd,nhd->hn", q[b].double(), k[s:s + n].double()) / D ** 0.5
err = (att.double() - ref).abs()
backend = "kiln" if getattr(__import__("triton"), "__kiln__", False) else "triton"
print(f"{backend}: nan {int(att.isnan().sum())}, max abs err {err.max().item():.3e}, "
      f"mean abs err {err.mean().item():.3e}, |ref| mean {ref.abs().mean().item():.3f}")
