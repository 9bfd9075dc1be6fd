"""Several GPUs from Python (issue 17, part 5; device only, at least 2 GPUs:
the nvidia-h200-x2 machine). Through kiln.jit and through the drop-in
`triton` (`python -m kiln.run python/tests/gpu_multi_device.py --dropin`):

  1. a tensor on cuda:1 launches on device 1 (the output is right and
     device 0's copy of the output is untouched), then cuda:0 again, then
     interleaved, each against torch;
  2. the current torch stream of the tensors' device is used: a launch on a
     side stream of device 1 is ordered after work queued on that stream;
  3. a data-parallel step: one thread per device, each launching on its own
     device concurrently (the module and launcher caches are per device).

As in Triton, the device of the first tensor argument decides where a launch
runs; tensors of other devices in the same launch are not checked.

Prints PASS/FAIL lines and a JSON summary; exits 1 on any failure, 77 when
fewer than 2 GPUs are visible.
"""
import json
import sys
import threading

import torch

from kilntest_common import ADD_SOURCE  # add_kernel: x + y * SCALE

SOURCE_NAME = "multi_device_add.py"


def load_kernel(dropin):
    import os
    import tempfile
    d = tempfile.mkdtemp()
    with open(os.path.join(d, SOURCE_NAME), "w") as f:
        f.write(ADD_SOURCE)
    if dropin:
        sys.path.insert(0, d)
        import multi_device_add  # the drop-in `triton` compiles it
        return multi_device_add.add_kernel
    import kiln
    return kiln.jit(os.path.join(d, SOURCE_NAME)).add_kernel


def main(argv):
    dropin = "--dropin" in argv
    if torch.cuda.device_count() < 2:
        print("SKIP: %d GPU(s) visible, 2 needed" % torch.cuda.device_count())
        return 77
    add = load_kernel(dropin)
    results = []

    def check(name, ok, detail=""):
        results.append((name, bool(ok), detail))
        print("%s  %s%s" % ("PASS" if ok else "FAIL", name, ": " + detail if detail else ""))

    n = 1 << 20
    block = 1024
    grid = ((n + block - 1) // block,)

    def launch_on(dev):
        x = torch.rand(n, device=dev)
        y = torch.rand(n, device=dev)
        out = torch.full((n,), float("nan"), device=dev)
        add[grid](x, y, out, n, BLOCK=block, SCALE=1)
        return x, y, out

    # 1. device 1, device 0, interleaved.
    for order in (["cuda:1"], ["cuda:0"], ["cuda:1", "cuda:0", "cuda:1"]):
        for dev in order:
            x, y, out = launch_on(dev)
            torch.cuda.synchronize(dev)
            err = (out - (x + y)).abs().max().item()
            check("launch on %s (after %s)" % (dev, "/".join(order)), err == 0.0,
                  "max abs error %g" % err)
    # The output of a launch on device 1 is not touched on device 0.
    sentinel = torch.full((n,), -1.0, device="cuda:0")
    x, y, out = launch_on("cuda:1")
    torch.cuda.synchronize()
    check("device 0 untouched by a device-1 launch", bool((sentinel == -1.0).all()))

    # 2. the current stream of the tensors' device.
    side = torch.cuda.Stream(device="cuda:1")
    with torch.cuda.device(1), torch.cuda.stream(side):
        x = torch.empty(n, device="cuda:1")
        y = torch.ones(n, device="cuda:1")
        out = torch.empty(n, device="cuda:1")
        torch.cuda._sleep(20_000_000)  # queue a long kernel on the side stream
        x.fill_(2.0)                   # ... then the value the launch must see
        add[grid](x, y, out, n, BLOCK=block, SCALE=1)
    side.synchronize()
    check("launch ordered on device 1's current (side) stream",
          bool((out == 3.0).all()), "out[0] = %g" % out[0].item())

    # 3. data parallel: one thread per device, concurrently.
    errors = {}

    def worker(dev):
        try:
            torch.cuda.set_device(dev)
            worst = 0.0
            for _ in range(50):
                x, y, out = launch_on("cuda:%d" % dev)
                torch.cuda.synchronize(dev)
                worst = max(worst, (out - (x + y)).abs().max().item())
            errors[dev] = worst
        except Exception as e:  # reported below
            errors[dev] = repr(e)

    threads = [threading.Thread(target=worker, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check("data-parallel threads on devices 0 and 1",
          all(v == 0.0 for v in errors.values()), str(errors))

    failed = [r for r in results if not r[1]]
    print(json.dumps({"dropin": dropin, "devices": torch.cuda.device_count(),
                      "passed": len(results) - len(failed), "failed": len(failed)}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
