#!/usr/bin/env python3
"""flash-linear-attention's operators (fla-org/flash-linear-attention, unmodified, in .ext/fla)
timed under whichever `triton` is active: run once with `python3` (Triton 3.6) and once with
`python3 -m kiln.run` (Kiln's drop-in), same seeded inputs, and compare the two JSON files with
--compare (the table of liger_bench.py; kernel_timing.py).

The operators, their inputs and their shapes are fla's own: its benchmark registry
(`benchmarks/ops/registry.py`: which function, which tensors, which transforms of randn make
valid gates) builds each op's inputs, bf16, at one of its `SHAPE_CONFIGS` (--shape, default
B4_T2048_H16_D128). fla autotunes nearly every kernel over its own config lists, so each
compiler runs the configs it picks: the comparison is of what a user of the library gets.
Times per op ("fwd", and "full" = forward + backward where fla has one): CUDA events, L2
flushed before each call, median of --reps after --warmup; then per-kernel times under
torch.profiler. fla refuses the gated backward under Triton 3.4-3.7.0 on Hopper (its issue
#640): such an op keeps its forward time and records the refusal as `full_error`. Device only.

    python3 bench/fla_bench.py --out triton.json [--only chunk_gla,chunk_gdn] [--fwd-only]
    python3 -m kiln.run bench/fla_bench.py --out kiln.json
    python3 bench/fla_bench.py --compare triton.json kiln.json [more pairs...]

The compare also prints each autotuner's own times of every config under both compilers (the
rows' "tuning"). --sweep KERNEL[,KERNEL] times instead every config of those kernels' autotune
lists, forced in turn, under torch.profiler (forward; --compare pairs the configs):

    python3 bench/fla_bench.py --only chunk_gdn --sweep l2norm_fwd_kernel --out t.json
"""
import importlib
import importlib.util
import os
import sys

import kernel_timing
from kernel_timing import compare, run_ops  # noqa: F401  (compare: tests)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT = os.path.join(ROOT, ".ext", "fla")
# The registry's ops that run on one GPU with fla's package alone (flash_attn is another
# package; the attnres pair, comba and the preconditioned ones are left to later runs).
OPS = ("chunk_gla", "chunk_simple_gla", "chunk_gdn", "chunk_kda", "chunk_delta_rule",
       "chunk_retention", "chunk_linear_attn", "chunk_rwkv6", "chunk_rwkv7",
       "chunk_dplr_delta_rule", "chunk_lightning_attn", "fused_recurrent_hgrn",
       "parallel_attn", "parallel_nsa")


def registry():
    """fla's benchmarks/ops/registry.py, loaded by path (benchmarks/ is no package)."""
    path = os.path.join(EXT, "benchmarks", "ops", "registry.py")
    spec = importlib.util.spec_from_file_location("fla_bench_registry", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def ops_table(torch, reg, shape_name, names):
    """name -> maker as kernel_timing.run_ops wants: the op called with the inputs fla's
    registry generates (seeded by run_ops), its first output the one timed and checked."""
    def maker(config):
        def make():
            shapes = config.default_shapes or reg.SHAPE_CONFIGS
            shape = dict(shapes[shape_name if shape_name in shapes else next(iter(shapes))])
            B, T, H, D = (shape.pop(k) for k in ("B", "T", "H", "D"))
            inputs = reg.generate_inputs(config, B, T, H, D, dtype=torch.bfloat16,
                                         device="cuda", **shape)
            fn = getattr(importlib.import_module(config.import_path),
                         config.func_name or config.name)
            leaves = [x for x in inputs.values()
                      if hasattr(x, "requires_grad") and x.requires_grad]

            def call():
                out = fn(**inputs, **config.extra_kwargs)
                return out[0] if config.output_is_tuple else out
            return call, leaves
        return make
    return {name: maker(reg.get_op(name)) for name in names}


def run(args):
    sys.path.insert(0, EXT)
    import torch
    import triton
    reg = registry()
    names = args.only.split(",") if args.only else list(OPS)
    table = ops_table(torch, reg, args.shape, names)
    if args.sweep:
        kernel_timing.sweep_configs(torch, table, args, args.sweep.split(","))
        return
    modes = ("fwd",) if args.fwd_only else ("fwd", "full")
    run_ops(torch, triton, table, args, modes)


def options(ap):
    ap.add_argument("--shape", default="B4_T2048_H16_D128",
                    help="a key of fla's SHAPE_CONFIGS (ops with their own shapes, e.g. "
                         "parallel_nsa, take their first)")
    ap.add_argument("--fwd-only", action="store_true")
    ap.add_argument("--sweep", metavar="KERNEL[,KERNEL]",
                    help="time every autotune config of these kernels instead (forward)")
    ap.add_argument("--sweep-configs", metavar="TEXT[,TEXT]",
                    help="with --sweep: only the configs whose text (as printed, e.g. "
                         "'BK=64 w1') contains one of these, from the first call on")


def main():
    kernel_timing.main(__doc__, run, extra=options)


if __name__ == "__main__":
    main()
