"""Per-config compile cost of attorch's autotuned conv2d_forward_kernel under
one backend (device only; run once per backend, each from a cold cache):

    python3 test/gpu/attorch/conv_configs_probe.py triton|kiln [ATTORCH_DIR]

Runs three of the sample's conv layers (fp16 Conv1d k7 groups 2, fp16
Conv2d k5 stride 2, fp32 Conv2d k1 stride 2) far enough to capture the
arguments of each new autotuning key (the launch itself is skipped), then
compiles every config of each key one after another with `warmup` and
prints, per config, the milliseconds to a loaded kernel (compile, ptxas or
the driver's JIT, load), registers and spilled bytes. The backends' columns
show whether a slow tuning comes from the compiler, the assembler or the
code (spills make ptxas slow).
"""
import json
import os
import sys
import tempfile
import time

BACKEND = sys.argv[1]
ROOT = sys.argv[2] if len(sys.argv) > 2 else "/work/main/.ext/attorch"
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
os.environ.setdefault("KILN_CACHE_DIR", tempfile.mkdtemp())
os.environ["CUDA_CACHE_DISABLE"] = "1"
if BACKEND == "kiln":
    import kiln
    kiln.install()
sys.path.insert(0, ROOT)

import torch  # noqa: E402
import triton  # noqa: E402
from triton.runtime import autotuner  # noqa: E402

import attorch  # noqa: E402
from attorch import conv_kernels  # noqa: E402

captured = []
original_run = autotuner.Autotuner.run


def capture(self, *args, grid, **kwargs):
    if self is conv_kernels.conv2d_forward_kernel:
        kwargs.pop("warmup", None)
        captured.append((args, grid, dict(kwargs)))
        return None
    return original_run(self, *args, grid=grid, **kwargs)


autotuner.Autotuner.run = capture

layers = [
    ("fp16 conv1d 2048x64x16 k7 g2 p1", torch.float16,
     (2048, 64, 16), lambda: attorch.Conv1d(64, 1024, 7, padding=1, groups=2)),
    ("fp16 conv2d 1x3x224x224 k5 s2 p1", torch.float16,
     (1, 3, 224, 224), lambda: attorch.Conv2d(3, 1024, 5, stride=2,
                                              padding=1)),
    ("fp32 conv2d 256x2048x7x7 k1 s2", torch.float32,
     (256, 2048, 7, 7), lambda: attorch.Conv2d(2048, 1024, 1, stride=2)),
]
names = []
for name, dtype, shape, make in layers:
    layer = make().cuda()
    x = torch.randn(shape, device="cuda", dtype=dtype)
    with torch.autocast("cuda", enabled=dtype is torch.float16):
        with torch.no_grad():
            try:
                layer(x)
            except Exception:
                pass  # the skipped launch left no output to post-process
    names.append(name)

tuned = conv_kernels.conv2d_forward_kernel
jit_fn = tuned.fn.fn
rows = []
for name, (args, grid, kwargs) in zip(names, captured):
    kwargs = dict(kwargs, tf32=True)
    for i, config in enumerate(tuned.configs):
        t0 = time.perf_counter()
        row = {"key": name, "config": i, "config_text": str(config)}
        try:
            ck = jit_fn.warmup(*args, grid=grid,
                               **dict(kwargs, **config.all_kwargs()))
            if hasattr(ck, "_init_handles"):
                ck._init_handles()
            row["ms"] = (time.perf_counter() - t0) * 1e3
            row["regs"] = getattr(ck, "n_regs", None)
            row["spills"] = getattr(ck, "n_spills", None)
        except Exception as e:
            row["ms"] = (time.perf_counter() - t0) * 1e3
            row["error"] = str(e).splitlines()[0][:160] if str(e) else \
                type(e).__name__
        rows.append(row)
        print("%-6s %-34s cfg %2d %8.1f ms regs %4s spills %6s %s" % (
            BACKEND, name, i, row["ms"], row.get("regs"), row.get("spills"),
            row.get("error", "")), flush=True)
for name in names:
    ms = [r["ms"] for r in rows if r["key"] == name]
    print("%-6s %-34s sum %.1f ms, max %.1f ms" % (BACKEND, name, sum(ms),
                                                    max(ms)))
out = os.environ.get("PROBE_JSON")
if out:
    with open(out, "w") as f:
        json.dump(rows, f, indent=1)
