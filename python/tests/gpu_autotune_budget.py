"""Does Kiln's short tuning budget pick as well as Triton's? (device only)

    python -m kiln.run python/tests/gpu_autotune_budget.py [--attorch DIR]

Runs attorch's layers (forward and backward) under the drop-in twice per
shape: first with Kiln's budget (2 + 10 ms per config, the default), then,
with every autotuner's results forgotten, with Triton's (25 + 100 ms,
KILN_AUTOTUNE_MS=25,100). The long run times every config of every key, so
it is the referee: for each key, the time of the config the short run chose
over the fastest config of the long run. Prints one row per (kernel, key)
and the geometric mean and worst of that ratio, and the tuning wall time
under each budget.
"""
import argparse
import math
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attorch",
                    default=os.path.join(os.path.dirname(__file__), "..",
                                         "..", ".ext", "attorch"))
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.attorch))
    import torch
    import attorch
    from triton.runtime.autotuner import Autotuner

    picks = {}     # (kernel, key) -> config chosen under the active budget
    timings = {}   # (kernel, key) -> {config: ms} under the active budget
    original = Autotuner.run

    def recording_run(self, *a, **kw):
        before = set(self.cache)
        out = original(self, *a, **kw)
        for key in set(self.cache) - before:
            picks[(self.__name__, key)] = self.cache[key]
            timings[(self.__name__, key)] = dict(self.configs_timings)
        return out
    Autotuner.run = recording_run

    tuners = set()
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("attorch"):
            tuners.update(v for v in vars(mod).values()
                          if isinstance(v, Autotuner))

    dev = "cuda"
    cases = [
        ("ReLU 2^16", lambda: attorch.ReLU(), (1 << 16,)),
        ("GELU 2^22", lambda: attorch.GELU(), (1 << 22,)),
        ("Softmax 4096x1000", lambda: attorch.Softmax(dim=-1), (4096, 1000)),
        ("LayerNorm 2048x768", lambda: attorch.LayerNorm(768), (2048, 768)),
        ("RMSNorm 8192x4096", lambda: attorch.RMSNorm(4096), (8192, 4096)),
        ("Linear 4096x1024->1024", lambda: attorch.Linear(1024, 1024),
         (4096, 1024)),
        ("Conv2d 16x64x56x56 k3", lambda: attorch.Conv2d(64, 64, 3, padding=1),
         (16, 64, 56, 56)),
    ]

    def run_all():
        t0 = time.perf_counter()
        for name, make, shape in cases:
            torch.manual_seed(0)
            layer = make().to(dev)
            x = torch.randn(shape, device=dev, requires_grad=True)
            y = layer(x)
            y.backward(torch.ones_like(y))
        torch.cuda.synchronize()
        return time.perf_counter() - t0

    os.environ.pop("KILN_AUTOTUNE_MS", None)
    run_all()  # compiles every config once: both timed runs below are warm
    for t in tuners:
        t.cache.clear()
    picks.clear()
    timings.clear()
    short_wall = run_all()
    short_picks = dict(picks)
    for t in tuners:
        t.cache.clear()
    picks.clear()
    timings.clear()
    os.environ["KILN_AUTOTUNE_MS"] = "25,100"
    long_wall = run_all()
    os.environ.pop("KILN_AUTOTUNE_MS")

    ratios = []
    print("%-34s %-28s %9s %9s %6s" % ("kernel", "key", "short ms", "best ms",
                                       "ratio"))
    for (kernel, key), config in sorted(short_picks.items(), key=str):
        referee = timings.get((kernel, key))
        if not referee or (kernel, key) not in picks:
            continue
        best = min(referee.values())
        mine = referee.get(config, float("inf"))
        ratio = mine / best if best > 0 else 1.0
        ratios.append(ratio)
        print("%-34s %-28s %9.4f %9.4f %6.3f%s" % (
            kernel[:34], str(key)[:28], mine, best, ratio,
            "" if config == picks[(kernel, key)] else "  (other pick)"))
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("\n%d keys: picks under 2 + 10 ms vs 25 + 100 ms: geomean %.3f, "
              "worst %.3f, same pick %d" % (
                  len(ratios), geo, max(ratios),
                  sum(1 for k, c in short_picks.items()
                      if picks.get(k) == c)))
    print("tuning wall time: short %.2f s, long %.2f s" % (short_wall,
                                                         long_wall))


if __name__ == "__main__":
    main()
