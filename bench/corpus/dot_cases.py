"""The corpus's tensor-core cases (tl.dot kernels of bench/corpus/dots.py),
appended to cases.CASES after the others. Same vocabulary as cases.py."""
from corpus_model import Case, Const, Float, Int, Ptr, cdiv, shape

POISON = "poison"
DOT_CASES = []
add = DOT_CASES.append

H = ("fp16", "bf16")
MM_SHAPES = [shape("small", M=256, N=256, K=256), shape("large", M=4096, N=4096, K=4096),
             shape("odd", M=1000, N=1000, K=1000)]


def _mm_grid(s, sms):
    return (cdiv(s.M, 128) * cdiv(s.N, 128),)


add(Case("dots.py", "matmul_kernel",
         "tl.dot in a K loop: grouped program order, masked M/N/K tails, wgmma on sm_90",
         [Ptr("a"), Ptr("b"), Ptr("c"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("K", lambda s: s.K), Int("stride_a", lambda s: s.K),
          Int("stride_b", lambda s: s.N), Int("stride_c", lambda s: s.N),
          Const("BLOCK_M", lambda s: 128), Const("BLOCK_N", lambda s: 128),
          Const("BLOCK_K", lambda s: 64), Const("GROUP_M", lambda s: 8)],
         MM_SHAPES, H, _mm_grid, 8,
         make=lambda c, s: {"a": c.randn(s.M, s.K, scale=0.1), "b": c.randn(s.K, s.N, scale=0.1),
                            "c": c.empty(s.M, s.N)},
         outputs={"c": POISON},
         ref=lambda c, s, t: {"c": t["a"].float() @ t["b"].float()},
         tol={"c": (2e-2, 2e-2)},
         bytes=lambda s, e: (s.M * s.K + s.K * s.N + s.M * s.N) * e))

ATTN_SHAPES = [shape("small", ZH=4, N=256, D=64), shape("large", ZH=64, N=4096, D=64),
               shape("odd", ZH=6, N=1000, D=128)]


def _attn_ref(c, s, t):
    q, k, v = (t[n].float() for n in ("q", "k", "v"))
    return {"o": c.torch.nn.functional.scaled_dot_product_attention(q, k, v,
                                                                    scale=s.D ** -0.5)}


add(Case("dots.py", "attention_kernel",
         "fused attention forward: two tl.dot per key block, online softmax in the mma layout",
         [Ptr("q"), Ptr("k"), Ptr("v"), Ptr("o"), Float("sm_scale", lambda s: s.D ** -0.5),
          Int("N_CTX", lambda s: s.N), Const("HEAD_DIM", lambda s: s.D),
          Const("BLOCK_M", lambda s: 128), Const("BLOCK_N", lambda s: 64)],
         ATTN_SHAPES, H, lambda s, sms: (cdiv(s.N, 128), s.ZH), 8,
         make=lambda c, s: {"q": c.randn(s.ZH, s.N, s.D), "k": c.randn(s.ZH, s.N, s.D),
                            "v": c.randn(s.ZH, s.N, s.D), "o": c.empty(s.ZH, s.N, s.D)},
         outputs={"o": POISON}, ref=_attn_ref,
         tol={"o": (1e-2, 1e-2)},
         bytes=lambda s, e: 4 * s.ZH * s.N * s.D * e))

MOE_SHAPES = [shape("small", T=64, E=4, N=256, K=256), shape("large", T=4096, E=8, N=2048, K=2048),
              shape("odd", T=37, E=3, N=300, K=200)]
MOE_TOP_K, MOE_BLOCK_M = 2, 64


def _moe_routing(s):
    """Slot t (token t // top_k) goes to expert (7 t + t // 5) % E; slots sorted
    by expert, each expert's padded to whole blocks with the invalid id T * top_k.
    Returns (slot ids, expert of each block, owner of each slot)."""
    slots = s.T * MOE_TOP_K
    owner = [(7 * t + t // 5) % s.E for t in range(slots)]
    ids, blocks = [], []
    for e in range(s.E):
        group = [t for t in range(slots) if owner[t] == e]
        group += [slots] * (-len(group) % MOE_BLOCK_M)
        ids += group
        blocks += [e] * (len(group) // MOE_BLOCK_M)
    return ids, blocks, owner


def _moe_make(c, s):
    ids, blocks, _ = _moe_routing(s)
    return {"a": c.randn(s.T, s.K, scale=0.1), "b": c.randn(s.E, s.K, s.N, scale=0.1),
            "c": c.empty(s.T * MOE_TOP_K, s.N),
            "ids": c.torch.tensor(ids, device=c.dev, dtype=c.torch.int32),
            "blocks": c.torch.tensor(blocks, device=c.dev, dtype=c.torch.int32)}


def _moe_ref(c, s, t):
    _, _, owner = _moe_routing(s)
    owner = c.torch.tensor(owner, device=c.dev)
    a, b = t["a"].float(), t["b"].float()
    out = c.torch.empty(s.T * MOE_TOP_K, s.N, device=c.dev, dtype=c.torch.float32)
    slots = c.torch.arange(s.T * MOE_TOP_K, device=c.dev)
    for e in range(s.E):
        mine = slots[owner == e]
        out[mine] = a[mine // MOE_TOP_K] @ b[e]
    return {"c": out}


add(Case("dots.py", "moe_gemm_kernel",
         "mixture-of-experts GEMM (vLLM's fused MoE): A rows gathered through sorted slot ids, "
         "B chosen per block's expert, padding slots masked",
         [Ptr("a"), Ptr("b"), Ptr("c"), Ptr("ids", dtype="i32"), Ptr("blocks", dtype="i32"),
          Int("num_slots", lambda s: s.T * MOE_TOP_K), Int("N", lambda s: s.N),
          Int("K", lambda s: s.K), Int("stride_a", lambda s: s.K),
          Int("stride_e", lambda s: s.K * s.N), Int("stride_b", lambda s: s.N),
          Int("stride_c", lambda s: s.N),
          Const("BLOCK_M", lambda s: MOE_BLOCK_M), Const("BLOCK_N", lambda s: 64),
          Const("BLOCK_K", lambda s: 32), Const("TOP_K", lambda s: MOE_TOP_K)],
         MOE_SHAPES, H, lambda s, sms: (len(_moe_routing(s)[1]) * cdiv(s.N, 64),), 4,
         make=_moe_make, outputs={"c": POISON}, ref=_moe_ref,
         tol={"c": (2e-2, 2e-2)},
         bytes=lambda s, e: (s.T * s.K + s.E * s.K * s.N + s.T * MOE_TOP_K * s.N) * e))

# K a multiple of the 128-wide scale groups; N not one of the 128-wide column groups (odd).
SCALED_SHAPES = [shape("small", M=64, N=256, K=256), shape("large", M=2048, N=4096, K=4096),
                 shape("odd", M=100, N=300, K=384)]
SCALE_GROUP = 128


def _scaled_make(quantized):
    """make() of a block-scaled matmul whose A and B come from quantized(c, rows, cols)."""
    def make(c, s):
        groups_k, groups_n = cdiv(s.K, SCALE_GROUP), cdiv(s.N, SCALE_GROUP)
        return {"a": quantized(c, s.M, s.K), "b": quantized(c, s.N, s.K),
                "a_scale": c.rand(s.M, groups_k, dtype="fp32", lo=1e-3, hi=2e-3),
                "b_scale": c.rand(groups_n, groups_k, dtype="fp32", lo=1e-3, hi=2e-3),
                "c": c.empty(s.M, s.N)}
    return make


def _scaled_ref(c, s, t):
    a, b = t["a"].float(), t["b"].float()
    out = c.torch.zeros(s.M, s.N, device=a.device)
    cols = c.torch.arange(s.N, device=a.device) // SCALE_GROUP
    for g in range(cdiv(s.K, SCALE_GROUP)):
        ks = slice(g * SCALE_GROUP, (g + 1) * SCALE_GROUP)
        out += (a[:, ks] @ b[:, ks].T) * t["a_scale"][:, g, None] * t["b_scale"][cols, g][None, :]
    return {"c": out}


add(Case("dots.py", "block_scaled_int8_matmul_kernel",
         "int8 tl.dot with fp32 block scales (per row of A, per 128 columns of B, per 128 of K) "
         "applied to each K step's products; the column scales gathered by n // group_n",
         [Ptr("a", "i8"), Ptr("b", "i8"), Ptr("c"), Ptr("a_scale", "fp32"),
          Ptr("b_scale", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("K", lambda s: s.K), Int("group_n", lambda s: SCALE_GROUP),
          Int("group_k", lambda s: SCALE_GROUP), Int("stride_a", lambda s: s.K),
          Int("stride_b", lambda s: s.K), Int("stride_c", lambda s: s.N),
          Const("BLOCK_M", lambda s: 64), Const("BLOCK_N", lambda s: 128),
          Const("BLOCK_K", lambda s: 128)],
         SCALED_SHAPES, H, lambda s, sms: (cdiv(s.M, 64) * cdiv(s.N, 128),), 4,
         make=_scaled_make(lambda c, m, n: c.randint(-128, 128, m, n, dtype="i8")),
         outputs={"c": POISON}, ref=_scaled_ref,
         tol={"c": (2e-2, 2e-2)},
         bytes=lambda s, e: s.M * s.K + s.N * s.K + s.M * s.N * e))


add(Case("dots.py", "block_scaled_fp8_matmul_kernel",
         "fp8 e4m3 tl.dot with fp32 block scales (DeepSeek-style w8a8: per row of A and per "
         "128 x 128 block of B for each 128 of K), grouped program order, rows wrapped by % M",
         [Ptr("a", "fp8e4nv"), Ptr("b", "fp8e4nv"), Ptr("c"), Ptr("a_scale", "fp32"),
          Ptr("b_scale", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("K", lambda s: s.K), Int("group_n", lambda s: SCALE_GROUP),
          Int("group_k", lambda s: SCALE_GROUP), Int("stride_am", lambda s: s.K),
          Int("stride_bn", lambda s: s.K), Int("stride_cm", lambda s: s.N),
          Int("stride_as", lambda s: cdiv(s.K, SCALE_GROUP)),
          Int("stride_bs", lambda s: cdiv(s.K, SCALE_GROUP)),
          Const("BLOCK_M", lambda s: 64), Const("BLOCK_N", lambda s: 128),
          Const("BLOCK_K", lambda s: 128), Const("GROUP_M", lambda s: 8)],
         SCALED_SHAPES, H, lambda s, sms: (cdiv(s.M, 64) * cdiv(s.N, 128),), 4,
         make=_scaled_make(lambda c, m, n: c.randn(m, n, dtype="fp8e4nv", scale=8.0)),
         outputs={"c": POISON}, ref=_scaled_ref,
         tol={"c": (2e-2, 2e-2)},
         bytes=lambda s, e: s.M * s.K + s.N * s.K + s.M * s.N * e))


BMM_SHAPES = [shape("small", Z=4, M=128, N=128, K=128), shape("large", Z=32, M=1024, N=1024, K=1024),
              shape("odd", Z=3, M=500, N=300, K=200)]
add(Case("dots.py", "bmm_bias_kernel",
         "batched tl.dot on a 3-D grid with 64-bit batch offsets and a per-batch bias",
         [Ptr("a"), Ptr("b"), Ptr("c"), Ptr("bias"), Int("M", lambda s: s.M),
          Int("N", lambda s: s.N), Int("K", lambda s: s.K),
          Int("stride_ab", lambda s: s.M * s.K), Int("stride_bb", lambda s: s.K * s.N),
          Int("stride_cb", lambda s: s.M * s.N),
          Const("BLOCK_M", lambda s: 64), Const("BLOCK_N", lambda s: 64),
          Const("BLOCK_K", lambda s: 32)],
         BMM_SHAPES, H, lambda s, sms: (cdiv(s.M, 64), cdiv(s.N, 64), s.Z), 4,
         make=lambda c, s: {"a": c.randn(s.Z, s.M, s.K, scale=0.1),
                            "b": c.randn(s.Z, s.K, s.N, scale=0.1),
                            "c": c.empty(s.Z, s.M, s.N), "bias": c.randn(s.Z, s.N)},
         outputs={"c": POISON},
         ref=lambda c, s, t: {"c": t["a"].float() @ t["b"].float() + t["bias"].float()[:, None, :]},
         tol={"c": (2e-2, 2e-2)},
         bytes=lambda s, e: s.Z * (s.M * s.K + s.K * s.N + s.M * s.N + s.N) * e))
