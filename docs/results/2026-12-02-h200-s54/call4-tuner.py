"""Session 54, call 4: why Kiln's autotuner timed some of fla's l2norm configs at 3-5x the
kernel's own time (call 2: BT=16 w1 89.5 us in the tuner, 17.7 us under the profiler in
call 3). Tunes l2norm_fwd_kernel on the registry's input three times (cache cleared
between), then times each config with triton.testing.do_bench (the tuner's method) and
with CUDA events around 50 back-to-back calls; prints the three side by side."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", ".ext", "fla"))
import torch  # noqa: E402
import triton  # noqa: E402
from fla.modules.l2norm import l2norm_fwd, l2norm_fwd_kernel  # noqa: E402

x = torch.randn(4 * 2048 * 16, 128, device="cuda", dtype=torch.bfloat16)
tuner = l2norm_fwd_kernel
while not hasattr(tuner, "configs_timings"):
    tuner = tuner.fn
rounds = []
for i in range(3):
    tuner.cache = {}
    t0 = time.perf_counter()
    l2norm_fwd(x)
    torch.cuda.synchronize()
    rounds.append({str(c): t[0] if isinstance(t, (list, tuple)) else t
                   for c, t in tuner.configs_timings.items()})
    print(f"tuning {i}: {time.perf_counter() - t0:.2f} s", flush=True)
configs = list(tuner.configs)
print(f"{'config':40} {'tune0':>7} {'tune1':>7} {'tune2':>7} {'bench':>7} {'b2b':>7}  (us)")
for cfg in configs:
    tuner.configs, tuner.cache = [cfg], {}
    l2norm_fwd(x)
    bench = triton.testing.do_bench(lambda: l2norm_fwd(x), warmup=25, rep=100)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(50):
        l2norm_fwd(x)
    e.record()
    torch.cuda.synchronize()
    b2b = s.elapsed_time(e) / 50
    t = [r.get(str(cfg), float("nan")) * 1e3 for r in rounds]
    print(f"{str(cfg)[:40]:40} {t[0]:7.1f} {t[1]:7.1f} {t[2]:7.1f} {bench * 1e3:7.1f} {b2b * 1e3:7.1f}",
          flush=True)
tuner.configs = configs
