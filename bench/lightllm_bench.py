#!/usr/bin/env python3
"""lightllm's inference kernels (ModelTC/lightllm, unmodified, the files they need in
.ext/lightllm) timed under whichever `triton` is active: run once with `python3` (Triton 3.6)
and once with `python3 -m kiln.run` (Kiln's drop-in), same seeded inputs, and compare the two
JSON files with --compare (the table of liger_bench.py; kernel_timing.py).

Each operator is called through lightllm's own Python wrapper with the arguments its model
code passes (llama/layer_infer/transformer_layer_infer.py and pre_layer_infer.py): Llama-2-7B
sizes (hidden 4096, 32 heads of 128, MLP 11008, vocabulary 32000), the KV cache as lightllm's
MemoryManager lays it out (one [tokens, 2 * kv_heads, 128] buffer, K and V its two halves),
token slots through req_to_token_indexs (each request's slots contiguous, as the files' test()
functions build them). fp16 (lightllm's default data_type) except rmsnorm / silu_and_mul /
gelu_and_mul in bf16. Prefill: 4 requests of 2048 tokens; decode: 32 requests of 1024..3867
tokens; gqa_* ops: 8 KV heads (Llama-3-8B's grouping). Inference only: one time per op,
"fwd" (CUDA events around each call, L2 flushed before each, median of --reps after
--warmup), then per-kernel times under torch.profiler. Device only.

lightllm's package __init__ files import every model (and torch.distributed, flashinfer...):
they are neither extracted nor run. install() registers each directory of .ext/lightllm/lightllm
as a bare package, so importing a kernel module runs that file and what it imports only.

    python3 bench/lightllm_bench.py --out triton.json [--only rmsnorm,rotary_emb]
    python3 -m kiln.run bench/lightllm_bench.py --out kiln.json
    python3 bench/lightllm_bench.py --compare triton.json kiln.json [more pairs...]
"""
import importlib
import os
import types

import kernel_timing
from kernel_timing import compare, run_ops  # noqa: F401  (compare: test_lightllm_bench)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT = os.path.join(ROOT, ".ext", "lightllm")
HIDDEN, HEADS, HEAD_DIM, INTER, VOCAB, RMS_EPS = 4096, 32, 128, 11008, 32000, 1e-5
GQA_KV_HEADS = 8
GEMMA_INTER = 16384  # gemma-2b's MLP, for gelu_and_mul
MOE_EXPERTS, MOE_TOPK = 128, 8  # Qwen3-MoE routing, for softmax_topk
PREFILL_BATCH, PREFILL_LEN = 4, 2048
TOKENS = PREFILL_BATCH * PREFILL_LEN
DECODE_BATCH = 32
MAX_REQUESTS, MAX_LEN = 64, 8192  # ReqManager's req_to_token_indexs is [requests + 1, MAX_LEN]

K = "models.llama.triton_kernel."
# op -> (wrapper module, [(module, @triton.jit kernel it launches)]), modules under `lightllm.`
OPS = {
    "context_attention": (K + "context_flashattention_nopad",
                          [(K + "context_flashattention_nopad", "_fwd_kernel")]),
    "token_att1": (K + "token_attention_nopad_att1",
                   [(K + "token_attention_nopad_att1", "_fwd_kernel_token_att1")]),
    "token_softmax": (K + "token_attention_nopad_softmax",
                      [(K + "token_attention_nopad_softmax", "_fwd_kernel_token_softmax")]),
    "softmax_reducev": (K + "token_attention_softmax_and_reducev",
                        [(K + "token_attention_softmax_and_reducev", "_fwd_kernel")]),
    "flash_decoding": (K + "flash_decoding",
                       [(K + "flash_decoding_stage1", "_fwd_kernel_flash_decode_stage1"),
                        (K + "flash_decoding_stage2", "_fwd_kernel_flash_decode_stage2")]),
    "gqa_flash_decoding": (K + "gqa_flash_decoding",
                           [(K + "gqa_flash_decoding_stage1", "_fwd_kernel_flash_decode_stage1"),
                            (K + "gqa_flash_decoding_stage2", "_fwd_kernel_flash_decode_stage2")]),
    "gqa_decode_attention": (K + "gqa_decode_flashattention_nopad",
                             [(K + "gqa_decode_flashattention_nopad", "_fwd_kernel")]),
    "rotary_emb": (K + "rotary_emb", [(K + "rotary_emb", "_rotary_kernel")]),
    "rmsnorm": (K + "rmsnorm", [(K + "rmsnorm", "_rms_norm_fwd_fused")]),
    "silu_and_mul": (K + "silu_and_mul", [(K + "silu_and_mul", "_silu_and_mul_kernel")]),
    "gelu_and_mul": ("models.gemma_2b.triton_kernel.gelu_and_mul",
                     [("models.gemma_2b.triton_kernel.gelu_and_mul", "_gelu_and_mul_kernel")]),
    "embedding": (K + "embedding", [(K + "embedding", "embedding_kernel")]),
    "destindex_copy_kv": ("common.basemodel.triton_kernel.destindex_copy_kv",
                          [("common.basemodel.triton_kernel.destindex_copy_kv",
                            "_fwd_kernel_destindex_copy_kv")]),
    "softmax_topk": ("common.fused_moe.softmax_topk",
                     [("common.fused_moe.softmax_topk", "softmax_topk_kernel")]),
}

COMMIT = "fc72ffab9a3455cfb571f22d45ab777cc29de0de"
# What .ext/lightllm holds: the modules above and what they import (context_flashattention_nopad
# reads lightllm.utils.device_utils.is_tesla, which logs through log_utils).
EXTRACT = ["LICENSE"] + sorted(
    {"lightllm/%s.py" % m.replace(".", "/")
     for w, ks in OPS.values() for m in [w] + [k for k, _ in ks]}
    | {"lightllm/utils/device_utils.py", "lightllm/utils/log_utils.py"})


def decode_lens():
    """Sequence lengths of the decode batch: spread over 1024..3867, none a multiple of 256
    but the first, so that the last block of most sequences is partial."""
    return [1024 + (i * 389) % 3072 for i in range(DECODE_BATCH)]


def install(root=EXT):
    """Registers `lightllm` and every directory below it in `root` as a package without
    running any __init__.py (kernel_timing.bare_packages). Returns the package names; an
    absent tree is an error saying how to extract it."""
    try:
        return kernel_timing.bare_packages(root, "lightllm")
    except FileNotFoundError:
        base = os.path.join(root, "lightllm")
        raise FileNotFoundError(
            f"{base} is missing; from a lightllm clone: git archive {COMMIT} "
            f"{' '.join(EXTRACT)} | tar -x -C {root} && echo {COMMIT} > {root}/COMMIT") from None


def load(module, root=EXT):
    """lightllm.<module>, imported with install()'s bare packages."""
    install(root)
    return importlib.import_module("lightllm." + module)


def ops_table(torch, dev):
    """name -> maker; a maker returns (call, []): call() runs the op once through lightllm's
    wrapper and returns its output (the checksum's tensor first)."""
    f16, bf16, f32, i32 = torch.float16, torch.bfloat16, torch.float32, torch.int32

    def mod(op):
        return load(OPS[op][0])

    def randn(*shape, dtype=f16):
        return torch.randn(shape, device=dev, dtype=f32).to(dtype)

    def ints(values):
        return torch.tensor(values, dtype=i32, device=dev)

    def batch(lens, kv_heads):
        """A batch as lightllm's InferStateInfo holds it, each request's KV slots contiguous
        in a random KV cache (kv_buffer[layer]: [slots + 1, 2 * kv_heads, HEAD_DIM])."""
        starts = [sum(lens[:i]) for i in range(len(lens))]
        req = torch.zeros((MAX_REQUESTS + 1, MAX_LEN), dtype=i32, device=dev)
        for r, (s, n) in enumerate(zip(starts, lens)):
            req[r, :n] = torch.arange(s, s + n, dtype=i32, device=dev)
        return types.SimpleNamespace(
            batch_size=len(lens), max_len_in_batch=max(lens), total=sum(lens),
            b_req_idx=torch.arange(len(lens), dtype=i32, device=dev), b_start_loc=ints(starts),
            b_seq_len=ints(lens), req_manager=types.SimpleNamespace(req_to_token_indexs=req),
            kv=randn(sum(lens) + 1, 2 * kv_heads, HEAD_DIM), kv_heads=kv_heads)

    def decode(kv_heads=HEADS):
        s = batch(decode_lens(), kv_heads)
        s.q = randn(s.batch_size, HEADS * HEAD_DIM)  # q_proj's output, viewed per head
        s.o = torch.empty_like(s.q)
        s.k, s.v = s.kv[:, :kv_heads], s.kv[:, kv_heads:2 * kv_heads]
        return s

    def heads(x):
        return x.view(-1, HEADS, HEAD_DIM)

    def context_attention():
        m, s = mod("context_attention"), batch([PREFILL_LEN] * PREFILL_BATCH, HEADS)
        q = randn(s.total, HEADS * HEAD_DIM)
        o, ready = torch.empty_like(q), torch.zeros_like(s.b_seq_len)  # no prompt cache

        def call():
            m.context_attention_fwd(heads(q), s.kv[:, :HEADS], s.kv[:, HEADS:], heads(o),
                                    s.b_req_idx, s.b_start_loc, s.b_seq_len, ready,
                                    s.max_len_in_batch, s.req_manager.req_to_token_indexs)
            return o
        return call, []

    def token_att1():
        m, s = mod("token_att1"), decode()
        att = torch.empty((HEADS, s.total), dtype=f32, device=dev)  # the default path's fp32

        def call():
            m.token_att_fwd(heads(s.q), s.k, att, s.req_manager.req_to_token_indexs,
                            s.b_req_idx, s.b_start_loc, s.b_seq_len, s.max_len_in_batch)
            return att
        return call, []

    def token_softmax():
        # In lightllm's int8kv path the logits are in the model's dtype.
        m, s = mod("token_softmax"), decode()
        logits = randn(HEADS, s.total)
        prob = torch.empty_like(logits)

        def call():
            m.token_softmax_fwd(logits, s.b_start_loc, s.b_seq_len, prob, s.max_len_in_batch)
            return prob
        return call, []

    def softmax_reducev():
        m, s = mod("softmax_reducev"), decode()
        logits = randn(HEADS, s.total, dtype=f32)  # token_att1's output

        def call():
            m.token_softmax_reducev_fwd(logits, s.v, heads(s.o), s.req_manager.req_to_token_indexs,
                                        s.b_req_idx, s.b_start_loc, s.b_seq_len)
            return s.o
        return call, []

    def flash_decoding(op="flash_decoding", kv_heads=HEADS):
        m, s = mod(op), decode(kv_heads)
        run = (m.token_decode_attention_flash_decoding if op == "flash_decoding"
               else m.gqa_token_decode_attention_flash_decoding)

        def call():  # mid buffers come from the wrapper's default torch.empty
            return run(s.q, s, HEADS, HEAD_DIM, s.k, s.v, out=s.o)
        return call, []

    def gqa_decode_attention():
        m, s = mod("gqa_decode_attention"), decode(GQA_KV_HEADS)

        def call():
            m.gqa_decode_attention_fwd(heads(s.q), s.k, s.v, heads(s.o),
                                       s.req_manager.req_to_token_indexs, s.b_req_idx,
                                       s.b_seq_len)
            return s.o
        return call, []

    def rotary_emb():
        # In place on q and on the K half of the layer's new cache_kv; cos/sin as
        # LlamaTpPartModel's _cos_cached rows at each token's position (rope_theta 1e4).
        m = mod("rotary_emb")
        q, cache_kv = randn(TOKENS, HEADS * HEAD_DIM), randn(TOKENS, 2 * HEADS, HEAD_DIM)
        pos = torch.arange(PREFILL_LEN, device=dev, dtype=f32).repeat(PREFILL_BATCH)
        inv_freq = 1.0 / 10000.0 ** (torch.arange(0, HEAD_DIM, 2, device=dev, dtype=f32)
                                     / HEAD_DIM)
        freqs = torch.outer(pos, inv_freq)
        cos, sin = freqs.cos().to(f16), freqs.sin().to(f16)

        def call():
            m.rotary_emb_fwd(heads(q), cache_kv[:, :HEADS], cos, sin)
            return q
        return call, []

    def rmsnorm():
        m = mod("rmsnorm")
        x, w = randn(TOKENS, HIDDEN, dtype=bf16), randn(HIDDEN, dtype=bf16)
        out = torch.empty_like(x)
        return (lambda: m.rmsnorm_forward(x, weight=w, eps=RMS_EPS, out=out)), []

    def silu_and_mul():
        m = mod("silu_and_mul")
        up_gate = randn(TOKENS, 2 * INTER, dtype=bf16)
        out = torch.empty((TOKENS, INTER), dtype=bf16, device=dev)

        def call():
            m.silu_and_mul_fwd(up_gate, out)
            return out
        return call, []

    def gelu_and_mul():
        m = mod("gelu_and_mul")
        up_gate = randn(TOKENS, 2 * GEMMA_INTER, dtype=bf16)
        out = torch.empty((TOKENS, GEMMA_INTER), dtype=bf16, device=dev)
        return (lambda: m.gelu_and_mul_fwd(up_gate, out)), []

    def embedding():
        m = mod("embedding")
        ids = torch.randint(0, VOCAB, (TOKENS,), device=dev)  # int64, as lightllm's input_ids
        weight = randn(VOCAB, HIDDEN)
        out = torch.empty((TOKENS, HIDDEN), dtype=f16, device=dev)

        def call():
            m.embedding(ids, weight, 0, VOCAB, out)  # tensor parallel 1: the whole vocabulary
            return out
        return call, []

    def destindex_copy_kv():
        # A prefill's new K/V rows into the layer's cache at mem_index (as test1(): arange).
        m = mod("destindex_copy_kv")
        cache_kv = randn(TOKENS, 2 * HEADS, HEAD_DIM)
        mem_index = torch.arange(TOKENS, dtype=i32, device=dev)
        kv_buffer = torch.zeros((2 * TOKENS + 1, 2 * HEADS, HEAD_DIM), dtype=f16, device=dev)

        def call():
            m.destindex_copy_kv(cache_kv, mem_index, kv_buffer)
            return kv_buffer
        return call, []

    def softmax_topk():
        m = mod("softmax_topk")
        gating = randn(TOKENS, MOE_EXPERTS, dtype=f32)

        def call():  # renormalized weights sum to 1 per row: the indices make the checksum
            weights, ids = m.softmax_topk(gating, MOE_TOPK, renorm=True)
            return ids, weights
        return call, []

    return {"context_attention": context_attention, "token_att1": token_att1,
            "token_softmax": token_softmax, "softmax_reducev": softmax_reducev,
            "flash_decoding": flash_decoding,
            "gqa_flash_decoding": lambda: flash_decoding("gqa_flash_decoding", GQA_KV_HEADS),
            "gqa_decode_attention": gqa_decode_attention, "rotary_emb": rotary_emb,
            "rmsnorm": rmsnorm, "silu_and_mul": silu_and_mul, "gelu_and_mul": gelu_and_mul,
            "embedding": embedding, "destindex_copy_kv": destindex_copy_kv,
            "softmax_topk": softmax_topk}


def run(args):
    install()
    import torch
    import triton
    run_ops(torch, triton, ops_table(torch, "cuda"), args, ("fwd",))


def main():
    kernel_timing.main(__doc__, run)


if __name__ == "__main__":
    main()
