#!/usr/bin/env python3
"""Liger-Kernel's operators (linkedin/Liger-Kernel, unmodified, in .ext/liger) timed under
whichever `triton` is active: run once with `python3` (Triton 3.6) and once with
`python3 -m kiln.run` (Kiln's drop-in), same seeded inputs, and compare the two JSON files
with --compare. Kernels nobody tuned for Kiln: the point is Kiln's code generation on a
library's own choices of blocks and warps.

Each operator runs through its autograd Function at a Llama-3-8B-sized shape (bf16, 8192
tokens unless the op says otherwise). Timed per op, CUDA events around each call, L2 flushed
before each (a 256 MB zero), median of --reps after --warmup:
  fwd   the forward under torch.no_grad()
  full  forward + backward (random upstream gradients, leaf .grad cleared before each rep)
and once under torch.profiler (full mode, --prof-reps calls back to back): each kernel's mean
CUDA time by name, so that a slow op points at its slow kernel. A checksum of the forward's
first output lets the two runs be compared for agreement. Device only.

    python3 bench/liger_bench.py --out triton.json [--only rms_norm,swiglu]
    python3 -m kiln.run bench/liger_bench.py --out kiln.json
    python3 bench/liger_bench.py --compare triton.json kiln.json [more pairs...]
"""
import os
import sys

import kernel_timing
from kernel_timing import compare, run_ops  # noqa: F401  (compare: test_liger_bench)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKENS, HIDDEN, INTER, VOCAB = 8192, 4096, 14336, 128256


def ops_table(torch, dev):
    """name -> maker; a maker returns (call, leaves): call() runs the op's forward."""
    from liger_kernel.ops import (cross_entropy, dyt, fused_add_rms_norm, geglu, group_norm,
                                  jsd, kl_div, layer_norm, poly_norm, relu_squared, rms_norm,
                                  rope, softmax, sparsemax, swiglu, tvd)
    bf16, f32 = torch.bfloat16, torch.float32

    def t(*shape, dtype=bf16, grad=True, scale=1.0):
        x = (torch.randn(shape, device=dev, dtype=f32) * scale).to(dtype)
        return x.requires_grad_(grad)

    def logp(*shape, dtype=f32, grad=True):
        x = torch.randn(*shape, device=dev, dtype=f32).log_softmax(-1).to(dtype)
        return x.requires_grad_(grad)

    def rms():
        x, w = t(TOKENS, HIDDEN), t(HIDDEN)
        return (lambda: rms_norm.LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False)), [x, w]

    def ln():
        x, w, b = t(TOKENS, HIDDEN), t(HIDDEN), t(HIDDEN)
        return (lambda: layer_norm.LigerLayerNormFunction.apply(x, w, b, 1e-6)), [x, w, b]

    def add_rms():
        x, r, w = t(TOKENS, HIDDEN), t(TOKENS, HIDDEN), t(HIDDEN)
        return (lambda: fused_add_rms_norm.LigerFusedAddRMSNormFunction.apply(
            x, r, w, 1e-6, 0.0, "llama", False)), [x, r, w]

    def silu_mul():
        a, b = t(TOKENS, INTER), t(TOKENS, INTER)
        return (lambda: swiglu.LigerSiLUMulFunction.apply(a, b)), [a, b]

    def gelu_mul():
        a, b = t(TOKENS, INTER), t(TOKENS, INTER)
        return (lambda: geglu.LigerGELUMulFunction.apply(a, b)), [a, b]

    def mlp_():
        # The fused gate/up projection + SwiGLU (ops/mlp.py: TMA descriptors with [1, BM, BK]
        # blocks of a 3-D input, autotuned over 32 configs); the down projection is cuBLAS.
        from liger_kernel.ops.mlp import LigerMLPFunction
        x = t(4, TOKENS // 4, HIDDEN)
        wg, wu, wd = t(INTER, HIDDEN, scale=0.02), t(INTER, HIDDEN, scale=0.02), t(HIDDEN, INTER, scale=0.02)
        return (lambda: LigerMLPFunction.apply(x, wg, wu, wd)), [x, wg, wu, wd]

    def rope_():
        q, k = t(4, 32, 2048, 128), t(4, 8, 2048, 128)
        cos, sin = t(1, 2048, 128, grad=False), t(1, 2048, 128, grad=False)
        return (lambda: rope.LigerRopeFunction.apply(q, k, cos, sin)), [q, k]

    def ce():
        x = t(4096, VOCAB, dtype=bf16)
        y = torch.randint(0, VOCAB, (4096,), device=dev)
        return (lambda: cross_entropy.LigerCrossEntropyFunction.apply(x, y, None)), [x]

    def softmax_():
        x = t(TOKENS, HIDDEN)
        return (lambda: softmax.LigerSoftmaxFunction.apply(x)), [x]

    def kl():
        p, q = logp(4096, 32000), logp(4096, 32000, grad=False)
        return (lambda: kl_div.LigerKLDivLossFunction.apply(p, q, "batchmean", True)), [p]

    def jsd_():
        p, q = logp(4096, 32000), logp(4096, 32000, grad=False)
        return (lambda: jsd.LigerJSDFunction.apply(p, q, None, 0.5)), [p]

    def tvd_():
        p = torch.randn(4096, 32000, device=dev).softmax(-1).requires_grad_(True)
        q = torch.randn(4096, 32000, device=dev).softmax(-1)
        return (lambda: tvd.LigerTVDLossFunction.apply(p, q)), [p]

    def group():
        x, w, b = t(32, 128, 4096), t(128), t(128)
        return (lambda: group_norm.LigerGroupNormFunction.apply(x, w, b, 128, 32, 1e-6)), [x, w, b]

    def dyt_():
        x, alpha = t(TOKENS, HIDDEN), t(1, dtype=f32)
        gamma, beta = t(HIDDEN), t(HIDDEN)
        return (lambda: dyt.LigerDyTFunction.apply(x, alpha, gamma, beta)), [x, alpha, gamma, beta]

    def sparse():
        x = t(TOKENS, 1024)
        return (lambda: sparsemax.LigerSparsemaxFunction.apply(x, -1)), [x]

    def poly():
        x, w, b = t(TOKENS, HIDDEN), t(3, dtype=f32), t(dtype=f32)
        return (lambda: poly_norm.LigerPolyNormFunction.apply(x, w, b, 1e-6, False)), [x, w, b]

    def relu2():
        x = t(TOKENS, INTER)
        return (lambda: relu_squared.LigerReLUSquaredFunction.apply(x)), [x]

    return {"rms_norm": rms, "layer_norm": ln, "fused_add_rms_norm": add_rms,
            "swiglu": silu_mul, "geglu": gelu_mul, "rope": rope_, "cross_entropy": ce,
            "softmax": softmax_, "kl_div": kl, "jsd": jsd_, "tvd": tvd_, "group_norm": group,
            "dyt": dyt_, "sparsemax": sparse, "poly_norm": poly, "relu_squared": relu2, "mlp": mlp_}


def run(args):
    sys.path.insert(0, os.path.join(ROOT, ".ext", "liger", "src"))
    os.environ.setdefault("LIGER_FUSED_MOE_AUTOTUNE", "0")
    import torch
    import triton
    run_ops(torch, triton, ops_table(torch, "cuda"), args, ("fwd", "full"))


def main():
    kernel_timing.main(__doc__, run)


if __name__ == "__main__":
    main()
