#!/usr/bin/env python3
"""vLLM's own Triton kernels (vllm-project/vllm, unmodified, the files they need in .ext/vllm)
timed under whichever `triton` is active: run once with `python3` (Triton 3.6) and once with
`python3 -m kiln.run` (Kiln's drop-in), same seeded inputs, and compare the two JSON files with
--compare (the table of liger_bench.py; kernel_timing.py).

Each operator is called through vLLM's Python wrapper with the arguments its callers pass
(v1/attention/backends/triton_attn.py, mla/triton_mla.py, fused_moe.fused_experts_impl,
the samplers): Llama-3-8B attention (32 query heads, 8 KV heads of 128, bf16, KV cache
blocks of 16 as vLLM allocates them, each sequence's blocks a random permutation), the MLA
decode of DeepSeek-V2-Lite (16 heads, latent 512 + rope 64), Qwen3-30B-A3B's MoE (128
experts, top 8, hidden 2048, expert MLP 768; vLLM's tuned H200 config) for 4096 prefill tokens
(gate-up) and 64 decode tokens (down, routing weights applied), int8 W8A8 GEMMs of Llama-3-8B's
QKV projection (2048 x 6144 x 4096), Mamba-2's gated RMSNorm (Codestral Mamba: 8192 channels,
8 groups), a Qwen2.5-VL vision-encoder attention (16 heads of 80, not causal) and the samplers
(256 requests; Qwen3's and Llama-3's vocabularies). Decode: 32 (MLA) or 16 (unified attention:
at most 128 / 8 KV heads = 16 sequences take its 3D split-softmax path) requests of 1024..3867
tokens; prefill: 4 prompts of 2048; prefix prefill: 8 requests of 512 new tokens after
1024..3071 cached ones. Inference only: "fwd" (CUDA
events around each call, L2 flushed before each, median of --reps after --warmup), then
per-kernel times under torch.profiler. Device only.

Host glue that needs vllm._C is done in torch here: moe_align_block_size (the CUDA op's
sorted token ids / expert ids / padded count for fused_moe_kernel). vLLM's package __init__
files, its platform detection and its logging are not run; install() registers the tree's
directories as bare packages and the few stand-ins below (STAND_INS, HOLLOW).

    python3 bench/vllm_bench.py --out triton.json [--only unified_attention,fused_moe]
    python3 -m kiln.run bench/vllm_bench.py --out kiln.json
    python3 bench/vllm_bench.py --compare triton.json kiln.json [more pairs...]
"""
import enum
import functools
import importlib
import logging
import os
import sys
import types

import kernel_timing
from kernel_timing import compare, run_ops  # noqa: F401  (compare: test_vllm_bench)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT = os.path.join(ROOT, ".ext", "vllm")
COMMIT = "9aaf83ef502fc37bc647f6e474314d48ba36cd1c"  # main, 2026-05-19 (#43119)

HEADS, KV_HEADS, HEAD_DIM, PAGE = 32, 8, 128, 16  # Llama-3-8B, vLLM's default block size
MLA_HEADS, MLA_LATENT, MLA_ROPE = 16, 512, 64  # DeepSeek-V2-Lite (qk head 128 + 64)
MOE_EXPERTS, MOE_TOPK, MOE_HIDDEN, MOE_INTER = 128, 8, 2048, 768  # Qwen3-30B-A3B
GEMM_M, GEMM_N, GEMM_K = 2048, 6144, 4096  # Llama-3-8B's QKV projection, 2048 tokens
VIT_HEADS, VIT_DIM, VIT_IMAGES, VIT_PATCHES = 16, 80, 4, 1024  # Qwen2.5-VL's vision encoder
MAMBA_D, MAMBA_GROUPS, MAMBA_TOKENS = 8192, 8, 4096  # Codestral Mamba 7B
SAMPLE_REQS, QWEN_VOCAB, LLAMA_VOCAB = 256, 151936, 128256
PREFILL_BATCH, PREFILL_LEN = 4, 2048
DECODE_BATCH = 32
UNIFIED_DECODE_BATCH = 128 // KV_HEADS  # triton_attn.py's seq_threshold_3D
PREFIX_BATCH, PREFIX_QUERY = 8, 512  # chunked prefill after a cached prefix
MOE_TOKENS, MOE_DECODE_TOKENS = 4096, 64

A = "v1.attention.ops."
MOE = "model_executor.layers.fused_moe.fused_moe"
INT8 = "model_executor.layers.quantization.utils.int8_utils"
# op -> (wrapper module, [(module, @triton.jit kernel it launches)]), modules under `vllm.`
OPS = {
    "decode_attention_mla": (A + "triton_decode_attention",
                             [(A + "triton_decode_attention", "_fwd_grouped_kernel_stage1"),
                              (A + "triton_decode_attention", "_fwd_kernel_stage2")]),
    "unified_attention": (A + "triton_unified_attention",
                          [(A + "triton_unified_attention", "kernel_unified_attention")]),
    "unified_attention_decode": (A + "triton_unified_attention",
                                 [(A + "triton_unified_attention", "kernel_unified_attention"),
                                  (A + "triton_unified_attention", "reduce_segments")]),
    "prefix_prefill": (A + "prefix_prefill", [(A + "prefix_prefill", "_fwd_kernel")]),
    "vit_attention": (A + "triton_prefill_attention",
                      [(A + "triton_prefill_attention", "_fwd_kernel")]),
    "merge_attn_states": (A + "triton_merge_attn_states",
                          [(A + "triton_merge_attn_states", "merge_attn_states_kernel")]),
    "fused_moe": (MOE, [(MOE, "fused_moe_kernel")]),
    "fused_moe_decode": (MOE, [(MOE, "fused_moe_kernel")]),
    "scaled_mm_int8": ("model_executor.layers.quantization.compressed_tensors.triton_scaled_mm",
                       [("model_executor.layers.quantization.compressed_tensors."
                         "triton_scaled_mm", "scaled_mm_kernel")]),
    "block_int8_matmul": (INT8, [(INT8, "_w8a8_block_int8_matmul")]),
    "rms_norm_gated": ("model_executor.layers.mamba.ops.layernorm_gated",
                       [("model_executor.layers.mamba.ops.layernorm_gated",
                         "_layer_norm_fwd_1pass_kernel")]),
    "gumbel_sample": ("v1.worker.gpu.sample.gumbel",
                      [("v1.worker.gpu.sample.gumbel", "_gumbel_sample_kernel")]),
    "topk_topp": ("v1.sample.ops.topk_topp_triton",
                  [("v1.sample.ops.topk_topp_triton", "_topk_topp_kernel")]),
}

# What the kernel files import that cannot be loaded here, and is given instead (install()):
# - vllm.triton_utils(.importing): its importing.py probes triton.backends' drivers, which
#   Kiln's drop-in lacked when this bench was written (vLLM turned Triton off). The
#   stand-ins hold what the files bind where Triton works (tl, triton, HAS_TRITON = True)
#   and name the files as theirs: Kiln's compiler reads the real files, and its drop-in
#   passes it those values for the names the files bind inside `if`/`try`. Since the
#   drop-in has triton.backends (659b993) the real files run as they are too (every kernel
#   here compiles through them, stand-in driver); the stand-ins stay so that timings of
#   the forty-second session's runs compare.
# - vllm.platforms: platform detection imports vllm._C and plugins; current_platform is an
#   NVIDIA GPU's, for the calls these files make.
# - vllm.logger: logging configuration (vllm.envs, vllm.logging_utils); loggers with
#   vLLM's *_once methods.
# - vllm.v1.kv_cache_interface: KVQuantMode (an IntEnum, as vLLM's, passed to the unified
#   attention kernel as a constexpr); the module imports the attention backend registry.
STAND_INS = ("vllm.triton_utils", "vllm.triton_utils.importing", "vllm.platforms",
             "vllm.logger", "vllm.v1.kv_cache_interface")
# Modules fused_moe.py imports for its other paths (modular kernels, the CUDA ops, custom op
# registration): hollow, every name a placeholder that does nothing when called.
HOLLOW = ("vllm._custom_ops", "vllm.utils.torch_utils",
          "vllm.model_executor.layers.fused_moe.modular_kernel",
          "vllm.model_executor.layers.fused_moe.activation",
          "vllm.model_executor.layers.fused_moe.config",
          "vllm.model_executor.layers.fused_moe.moe_align_block_size",
          "vllm.model_executor.layers.fused_moe.utils")
MOE_CONFIG = ("vllm/model_executor/layers/fused_moe/configs/"
              "E=128,N=768,device_name=NVIDIA_H200.json")
# What .ext/vllm holds: the modules above, what they import at their top level (but the
# stand-ins and hollow modules), the two triton_utils files Kiln's compiler reads, and the
# MoE config get_moe_configs() reads.
EXTRACT = ["LICENSE", MOE_CONFIG] + sorted(
    {"vllm/%s.py" % m.replace(".", "/") for w, ks in OPS.values()
     for m in [w] + [k for k, _ in ks]}
    | {"vllm/triton_utils/__init__.py", "vllm/triton_utils/importing.py", "vllm/envs.py",
       "vllm/utils/math_utils.py", "vllm/utils/platform_utils.py",
       "vllm/v1/attention/ops/triton_attention_helpers.py"})


def next_pow2(n):
    return 1 << max(0, n - 1).bit_length()


def decode_lens(n=DECODE_BATCH):
    """Sequence lengths of a decode batch (lightllm_bench.py's): spread over 1024..3867, all
    but two of the first 32 ending in a partial block."""
    return [1024 + (i * 389) % 3072 for i in range(n)]


class _Hollow:
    """A name of a hollow module: attributes, calls, `X | None` and X[...] all give a
    placeholder, so that the module's users run their top level (fused_moe.py registers
    custom ops and annotates with these names)."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Hollow(self._name + "." + attr)

    def __call__(self, *args, **kwargs):
        return None

    def __or__(self, other):
        return self

    __ror__ = __or__

    def __getitem__(self, key):
        return self

    def __repr__(self):
        return "<hollow %s>" % self._name


class _HollowModule(types.ModuleType):
    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Hollow(self.__name__ + "." + attr)


class _CudaPlatform:
    """vllm.platforms.current_platform on an NVIDIA GPU, for what the chosen files ask."""
    device_type = "cuda"

    def is_cuda(self):
        return True

    def is_cuda_alike(self):
        return True

    def is_rocm(self):
        return False

    def is_xpu(self):
        return False

    def get_device_capability(self, device_id=0):
        import torch
        major, minor = torch.cuda.get_device_capability(device_id)
        return major, minor

    def has_device_capability(self, capability, device_id=0):
        major, minor = self.get_device_capability(device_id)
        if isinstance(capability, tuple):
            return (major, minor) >= capability
        return major * 10 + minor >= capability

    def fp8_dtype(self):
        import torch
        return torch.float8_e4m3fn

    def get_device_name(self, device_id=0):
        import torch
        return torch.cuda.get_device_name(device_id)

    def num_compute_units(self, device_id=0):
        import torch
        return torch.cuda.get_device_properties(device_id).multi_processor_count


class _Logger(logging.LoggerAdapter):
    """vLLM's logger: the standard methods and info_once / warning_once / debug_once."""

    def process(self, msg, kwargs):
        return msg, kwargs

    @functools.lru_cache(None)  # noqa: B019  (the messages are few)
    def _once(self, level, msg, args):
        self.log(level, msg, *args)

    def info_once(self, msg, *args, scope=None):
        self._once(logging.INFO, msg, args)

    def warning_once(self, msg, *args, scope=None):
        self._once(logging.WARNING, msg, args)

    def debug_once(self, msg, *args, scope=None):
        self._once(logging.DEBUG, msg, args)


def _module(name, file=None, **values):
    mod = types.ModuleType(name)
    mod.__package__ = name.rpartition(".")[0]
    if file is not None:
        mod.__file__ = file
    mod.__dict__.update(values)
    mod.__vllm_bench_stand_in__ = True
    return mod


def _stand_ins(root):
    """name -> module for STAND_INS; imports triton (the active one: Kiln's under kiln.run)."""
    import triton
    import triton.language as tl
    import triton.language.extra.libdevice as tldevice
    utils = os.path.join(root, "vllm", "triton_utils")
    pkg = _module("vllm.triton_utils", os.path.join(utils, "__init__.py"), triton=triton,
                  tl=tl, tldevice=tldevice, HAS_TRITON=True, LOG2E=1.4426950408889634,
                  LOGE2=0.6931471805599453)
    pkg.__path__, pkg.__package__ = [utils], "vllm.triton_utils"

    class KVQuantMode(enum.IntEnum):  # vllm/v1/kv_cache_interface.py's values
        NONE = 0
        FP8_PER_TENSOR = 1
        INT8_PER_TOKEN_HEAD = 2
        FP8_PER_TOKEN_HEAD = 3
        NVFP4 = 4

    return {
        "vllm.triton_utils": pkg,
        "vllm.triton_utils.importing": _module(
            "vllm.triton_utils.importing", os.path.join(utils, "importing.py"),
            HAS_TRITON=True),
        "vllm.platforms": _module("vllm.platforms", current_platform=_CudaPlatform()),
        "vllm.logger": _module("vllm.logger",
                               init_logger=lambda name: _Logger(logging.getLogger(name), {})),
        "vllm.v1.kv_cache_interface": _module("vllm.v1.kv_cache_interface",
                                              KVQuantMode=KVQuantMode),
    }


def _register(name, mod):
    sys.modules[name] = mod
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, mod)


def install(root=EXT):
    """Registers `vllm` and every directory below it in `root` as a bare package (no
    __init__.py runs), then the stand-ins and hollow modules (once: a second call keeps
    them). Returns the bare package names; an absent tree is an error that says how to
    extract it."""
    try:
        names = kernel_timing.bare_packages(root, "vllm", skip=STAND_INS)
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{os.path.join(root, 'vllm')} is missing; from a vLLM clone: "
            f"git archive {COMMIT} {' '.join(repr(f) for f in EXTRACT)} | tar -x -C {root} "
            f"&& echo {COMMIT} > {root}/COMMIT") from None
    if not getattr(sys.modules.get("vllm.triton_utils"), "__vllm_bench_stand_in__", False):
        for name, mod in _stand_ins(root).items():
            _register(name, mod)
    for name in HOLLOW:
        if not isinstance(sys.modules.get(name), _HollowModule):
            _register(name, _HollowModule(name))
    return names


def load(module, root=EXT):
    """vllm.<module>, imported with install()'s bare packages and stand-ins."""
    install(root)
    return importlib.import_module("vllm." + module)


def moe_align_block_size(torch, topk_ids, block, experts):
    """vllm._C's moe_align_block_size in torch (moe_align_block_size.py allocates the same
    sizes): the flattened (token, k) indices grouped by expert, each expert's run padded to
    a multiple of `block` with the index topk_ids.numel(); the expert of each block; the
    padded count. Within an expert the order is the tokens' (the CUDA op's may differ:
    each row of the result is written once either way)."""
    flat = topk_ids.flatten().long()
    n = flat.numel()
    padded_max = n + experts * (block - 1)
    if n < experts:
        padded_max = min(n * block, padded_max)
    counts = torch.bincount(flat, minlength=experts)
    padded = (counts + block - 1) // block * block
    starts = torch.cumsum(padded, 0) - padded
    order = torch.argsort(flat, stable=True)
    first = torch.cumsum(counts, 0) - counts
    expert = flat[order]
    pos = starts[expert] + torch.arange(n, device=flat.device) - first[expert]
    sorted_ids = torch.full((padded_max,), n, dtype=torch.int32, device=flat.device)
    sorted_ids[pos] = order.to(torch.int32)
    expert_ids = torch.full(((padded_max + block - 1) // block,), -1, dtype=torch.int32,
                            device=flat.device)
    blocks = torch.repeat_interleave(torch.arange(experts, device=flat.device), padded // block)
    expert_ids[:blocks.numel()] = blocks.to(torch.int32)
    return sorted_ids, expert_ids, padded.sum().reshape(1).to(torch.int32)


def ops_table(torch, dev):
    """name -> maker; a maker returns (call, []): call() runs the op once through vLLM's
    wrapper and returns its output (the checksum's tensor first)."""
    bf16, f32, i32, i8 = torch.bfloat16, torch.float32, torch.int32, torch.int8

    def mod(op):
        return load(OPS[op][0])

    def randn(*shape, dtype=bf16):
        return torch.randn(shape, device=dev, dtype=f32).to(dtype)

    def ints(values):
        return torch.tensor(values, dtype=i32, device=dev)

    def paged(lens, kv_heads, head_dim, caches=2):
        """A paged KV cache as vLLM's block pool holds it: `caches` random pools of
        [blocks, PAGE, kv_heads, dim] (K and V), each sequence's blocks a random permutation
        of the pool in block_table [seqs, max blocks] int32."""
        per = [(n + PAGE - 1) // PAGE for n in lens]
        pool = sum(per) + 1
        perm = torch.randperm(pool, device=dev)[:sum(per)].to(i32)
        table = torch.zeros((len(lens), max(per)), dtype=i32, device=dev)
        at = 0
        for s, n in enumerate(per):
            table[s, :n] = perm[at:at + n]
            at += n
        return [randn(pool, PAGE, kv_heads, head_dim) for _ in range(caches)] + [table]

    def decode_attention_mla():
        # triton_mla.py's forward_mqa: one latent KV head (c_kv | k_pe), V the first 512
        # columns of the same cache, num_kv_splits from its heuristic (3867 // 512 -> 8).
        # (Its SM bound, 2 x 132 on the H200, is far above 8.)
        m, lens = mod("decode_attention_mla"), decode_lens()
        cache, table = paged(lens, 1, MLA_LATENT + MLA_ROPE, caches=1)
        latent, seq_lens = cache[..., :MLA_LATENT], ints(lens)
        q = randn(DECODE_BATCH, MLA_HEADS, MLA_LATENT + MLA_ROPE)
        o = torch.zeros((DECODE_BATCH, MLA_HEADS, MLA_LATENT), dtype=bf16, device=dev)
        lse = torch.zeros((DECODE_BATCH, MLA_HEADS), dtype=bf16, device=dev)
        splits = next_pow2(max(lens) // 512)
        logits = torch.empty((DECODE_BATCH, MLA_HEADS, splits, MLA_LATENT + 1), dtype=f32,
                             device=dev)
        one = torch.tensor(1.0, dtype=f32, device=dev)
        scale = (HEAD_DIM + MLA_ROPE) ** -0.5

        def call():
            m.decode_attention_fwd(q, cache, latent, o, lse, table, seq_lens, logits, splits,
                                   scale, PAGE, k_scale=one, v_scale=one, is_mla=True)
            return o
        return call, []

    def unified(lens, query_lens):
        """unified_attention as triton_attn.py's forward calls it (bf16 cache, no window,
        no softcap, scales 1 expanded per sequence and KV head, its 3D buffers)."""
        m = load(OPS["unified_attention"][0])
        k, v, table = paged(lens, KV_HEADS, HEAD_DIM)
        q = randn(sum(query_lens), HEADS, HEAD_DIM)
        out = torch.empty_like(q)
        cu = ints([sum(query_lens[:i]) for i in range(len(query_lens) + 1)])
        seq_lens = ints(lens)
        descale = torch.ones(1, dtype=f32, device=dev).expand(len(lens), KV_HEADS)
        threshold, segments = UNIFIED_DECODE_BATCH, 16  # NUM_PAR_SOFTMAX_SEGMENTS
        segm_out = torch.empty((threshold, HEADS, segments, HEAD_DIM), dtype=f32, device=dev)
        segm_max = torch.empty((threshold, HEADS, segments), dtype=f32, device=dev)
        segm_sum = torch.empty_like(segm_max)

        def call():
            m.unified_attention(q, k, v, out, cu, max(query_lens), seq_lens, max(lens),
                                HEAD_DIM ** -0.5, True, (-1, -1), table, 0, None, descale,
                                descale, seq_threshold_3D=threshold,
                                num_par_softmax_segments=segments,
                                softmax_segm_output=segm_out, softmax_segm_max=segm_max,
                                softmax_segm_expsum=segm_sum)
            return out
        return call, []

    def prefix_prefill():
        # context_attention_fwd's layouts (test_prefix_prefill.py): new tokens' K/V
        # [tokens, kv_heads, dim], the cached prefix K [blocks, kv_heads, dim / 8, PAGE, 8]
        # and V [blocks, kv_heads, dim, PAGE].
        m = mod("prefix_prefill")
        ctx = [1024 + (i * 389) % 2048 for i in range(PREFIX_BATCH)]
        query = [PREFIX_QUERY] * PREFIX_BATCH
        k_cache, v_cache, table = paged(ctx, KV_HEADS, HEAD_DIM)
        k_cache = k_cache.view(-1, PAGE, KV_HEADS, HEAD_DIM // 8, 8).permute(
            0, 2, 3, 1, 4).contiguous()
        v_cache = v_cache.permute(0, 2, 3, 1).contiguous()
        tokens = sum(query)
        q, k, v = (randn(tokens, n, HEAD_DIM) for n in (HEADS, KV_HEADS, KV_HEADS))
        o = torch.empty_like(q)
        starts = ints([sum(query[:i]) for i in range(PREFIX_BATCH + 1)])
        seq_lens = [c + n for c, n in zip(ctx, query)]
        b_seq_len, one = ints(seq_lens), torch.tensor(1.0, dtype=f32, device=dev)

        def call():
            m.context_attention_fwd(q, k, v, o, "auto", k_cache, v_cache, table, starts,
                                    b_seq_len, max(seq_lens), PREFIX_QUERY, one, one)
            return o
        return call, []

    def vit_attention():
        # vit_attn_wrappers.triton_attn_wrapper: images of equal patch counts, not causal.
        m = mod("vit_attention")
        q, k, v = (randn(VIT_IMAGES * VIT_PATCHES, VIT_HEADS, VIT_DIM) for _ in range(3))
        o = torch.empty_like(q)
        cu = ints([i * VIT_PATCHES for i in range(VIT_IMAGES + 1)])
        starts, lens = cu[:-1], cu[1:] - cu[:-1]

        def call():
            m.context_attention_fwd(q, k, v, o, b_start_loc=starts, b_seq_len=lens,
                                    max_input_len=VIT_PATCHES, is_causal=False)
            return o
        return call, []

    def merge_attn_states():
        # A prefill's two partial attentions (cached prefix, new tokens) and their LSEs.
        m, tokens = mod("merge_attn_states"), PREFILL_BATCH * PREFILL_LEN
        prefix, suffix = randn(tokens, HEADS, HEAD_DIM), randn(tokens, HEADS, HEAD_DIM)
        p_lse, s_lse = randn(HEADS, tokens, dtype=f32), randn(HEADS, tokens, dtype=f32)
        out = torch.empty_like(prefix)

        def call():
            m.merge_attn_states(out, prefix, p_lse, suffix, s_lse)
            return out
        return call, []

    def fused_moe(tokens, down):
        """One of fused_experts_impl's two grouped GEMMs with the tuned H200 config for
        `tokens`: gate-up (w13, top 8) or, `down`, w2 on the activated rows with the routing
        weights applied (top_k 1, as its second call passes)."""
        m = mod("fused_moe")
        gate = torch.softmax(randn(tokens, MOE_EXPERTS, dtype=f32), -1)
        weights, ids = torch.topk(gate, MOE_TOPK, dim=-1)
        weights = weights / weights.sum(-1, keepdim=True)  # Qwen3's norm_topk_prob
        configs = m.get_moe_configs(MOE_EXPERTS, MOE_INTER, None)
        if not configs:
            raise RuntimeError("no tuned MoE config: is %s extracted?" % MOE_CONFIG)
        config = configs[min(configs, key=lambda x: abs(x - tokens))]
        sorted_ids, expert_ids, padded = moe_align_block_size(
            torch, ids.to(i32), config["BLOCK_SIZE_M"], MOE_EXPERTS)
        if down:
            a = randn(tokens * MOE_TOPK, MOE_INTER)  # silu_and_mul's output
            w = randn(MOE_EXPERTS, MOE_HIDDEN, MOE_INTER) * 0.02
            c = torch.empty((tokens, MOE_TOPK, MOE_HIDDEN), dtype=bf16, device=dev)
        else:
            a = randn(tokens, MOE_HIDDEN)
            w = randn(MOE_EXPERTS, 2 * MOE_INTER, MOE_HIDDEN) * 0.02
            c = torch.empty((tokens, MOE_TOPK, 2 * MOE_INTER), dtype=bf16, device=dev)

        def call():
            m.invoke_fused_moe_triton_kernel(
                a, w, c, None, None, weights, sorted_ids, expert_ids, padded, down,
                1 if down else MOE_TOPK, config, compute_type=m.tl.bfloat16,
                use_fp8_w8a8=False, use_int8_w8a8=False, use_int8_w8a16=False,
                use_int4_w4a16=False, per_channel_quant=False)
            return c
        return call, []

    def int8_operands():
        a = torch.randint(-127, 128, (GEMM_M, GEMM_K), dtype=i8, device=dev)
        b = torch.randint(-127, 128, (GEMM_N, GEMM_K), dtype=i8, device=dev)
        return a, b

    def scaled_mm_int8():
        # TritonInt8ScaledMMLinearKernel: the weight transposed ([K, N], column-major),
        # per-token activation scales and per-channel weight scales.
        m = mod("scaled_mm_int8")
        a, b = int8_operands()
        sa = torch.rand((GEMM_M, 1), device=dev) * 1e-2
        sb = torch.rand((GEMM_N, 1), device=dev) * 1e-2
        b_t = b.t()
        return (lambda: m.triton_scaled_mm(a, b_t, sa, sb, bf16)), []

    def block_int8_matmul():
        # Block-quantized W8A8 (128 x 128 weight blocks, per-token groups of 128); no tuned
        # config for the H200: the wrapper's default.
        m = mod("block_int8_matmul")
        a, b = int8_operands()
        sa = torch.rand((GEMM_M, GEMM_K // 128), device=dev) * 1e-2
        sb = torch.rand((GEMM_N // 128, GEMM_K // 128), device=dev) * 1e-2
        return (lambda: m.w8a8_block_int8_matmul(a, b, sa, sb, [128, 128], bf16)), []

    def rms_norm_gated():
        # mamba_mixer2.py: RMSNorm per group of channels, gated by silu(z) before the norm.
        m = mod("rms_norm_gated")
        x, z = randn(MAMBA_TOKENS, MAMBA_D), randn(MAMBA_TOKENS, MAMBA_D)
        w = randn(MAMBA_D)

        def call():
            return m.rms_norm_gated(x, w, None, z=z, eps=1e-5,
                                    group_size=MAMBA_D // MAMBA_GROUPS, norm_before_gate=False)
        return call, []

    def gumbel_sample():
        # The GPU model runner's sampler: temperature already applied, one token per request.
        m = mod("gumbel_sample")
        logits = randn(SAMPLE_REQS, QWEN_VOCAB, dtype=f32)
        idx = torch.arange(SAMPLE_REQS, dtype=i32, device=dev)
        temp = torch.rand(SAMPLE_REQS, device=dev) * 0.5 + 0.5
        seeds = torch.randint(0, 2**62, (SAMPLE_REQS,), device=dev)
        pos = torch.tensor(decode_lens(SAMPLE_REQS), dtype=torch.int64, device=dev)
        return (lambda: m.gumbel_sample(logits, idx, temp, seeds, pos,
                                        apply_temperature=False)), []

    def topk_topp():
        # Per-request top-k (1..1000) and top-p (0.6..0.99); the kernel masks the logits in
        # place (-inf), so each call first restores them (a copy kernel in fwd_us).
        m = mod("topk_topp")
        base = randn(SAMPLE_REQS, LLAMA_VOCAB, dtype=f32)
        logits = torch.empty_like(base)
        k = torch.randint(1, 1001, (SAMPLE_REQS,), dtype=i32, device=dev)
        p = torch.rand(SAMPLE_REQS, device=dev) * 0.39 + 0.6

        def call():
            logits.copy_(base)
            return m.apply_top_k_top_p_triton(logits, k, p)
        return call, []

    return {"decode_attention_mla": decode_attention_mla,
            "unified_attention": lambda: unified([PREFILL_LEN] * PREFILL_BATCH,
                                                 [PREFILL_LEN] * PREFILL_BATCH),
            "unified_attention_decode": lambda: unified(decode_lens(UNIFIED_DECODE_BATCH),
                                                        [1] * UNIFIED_DECODE_BATCH),
            "prefix_prefill": prefix_prefill, "vit_attention": vit_attention,
            "merge_attn_states": merge_attn_states,
            "fused_moe": lambda: fused_moe(MOE_TOKENS, False),
            "fused_moe_decode": lambda: fused_moe(MOE_DECODE_TOKENS, True),
            "scaled_mm_int8": scaled_mm_int8, "block_int8_matmul": block_int8_matmul,
            "rms_norm_gated": rms_norm_gated, "gumbel_sample": gumbel_sample,
            "topk_topp": topk_topp}


def run(args):
    unknown = [n for n in (args.only or "").split(",") if n and n not in OPS]
    if unknown:
        sys.exit(f"vllm_bench: unknown op(s) {', '.join(unknown)}; the ops: {', '.join(OPS)}")
    try:
        import torch
        import triton
        install()
    except ImportError as e:
        sys.exit(f"vllm_bench: {e}: timing needs torch and triton (or python3 -m kiln.run)")
    except FileNotFoundError as e:  # no traceback: the message says how to extract the tree
        sys.exit(f"vllm_bench: {e}")
    run_ops(torch, triton, ops_table(torch, "cuda"), args, ("fwd",))


def main():
    kernel_timing.main(__doc__, run)


if __name__ == "__main__":
    main()
