"""`compiled[grid](..., stream=s)` launches on stream `s` (a raw CUstream
handle, as Triton's launcher takes it), not on the current stream; device
only, under the drop-in (`python -m kiln.run python/tests/gpu_dropin_stream.py`).

The side stream is kept busy (torch.cuda._sleep), then fills x; a launch on
it must see the filled x, and must not have run when the current stream
alone is synchronized (a launch on the current stream would have read x
before the fill). The side stream is a non-blocking one (CuPy's, seen by
torch as an ExternalStream): torch's default stream is the legacy one,
which waits for blocking streams, so with torch's own side stream reading
the output would wait for the launch anyway. The current stream is the same
after. Prints PASS/FAIL lines; exits 1 on any failure.
"""
import os
import sys
import tempfile

import torch

from kilntest_common import ADD_SOURCE  # add_kernel: x + y * SCALE


def main():
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "stream_add.py"), "w") as f:
        f.write(ADD_SOURCE)
    sys.path.insert(0, d)
    import stream_add
    add = stream_add.add_kernel
    n, block = 4096, 1024
    x = torch.zeros(n, device="cuda")
    y = torch.ones(n, device="cuda")
    out = torch.full((n,), -1.0, device="cuda")
    compiled = add.warmup(x, y, out, n, BLOCK=block, SCALE=1, grid=(n // block,))
    torch.cuda.synchronize()
    import cupy
    keep = cupy.cuda.Stream(non_blocking=True)
    side = torch.cuda.ExternalStream(keep.ptr)
    # The explicit-stream path once before the timed part: its first call
    # sets things up on the host, which must not outlast the side stream's
    # sleep below.
    compiled[(n // block, 1, 1)](x, y, out, n, block, 1, stream=side.cuda_stream)
    side.synchronize()
    out.fill_(-1.0)
    torch.cuda.synchronize()
    before = torch.cuda.current_stream().cuda_stream
    failures = 0

    def check(name, ok, detail=""):
        nonlocal failures
        failures += not ok
        print("%s %s %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)

    # How long the side stream's sleep lasts (it must outlast the host's
    # launch and the check after it).
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(side):
        t0.record()
        for _ in range(10):
            torch.cuda._sleep(50_000_000)
        t1.record()
    side.synchronize()
    print("side stream sleep: %.1f ms" % t0.elapsed_time(t1), flush=True)
    with torch.cuda.stream(side):
        for _ in range(10):            # the side stream is busy for a while
            torch.cuda._sleep(50_000_000)
        x.fill_(2.0)                   # ... then gives x the value the launch must see
    compiled[(n // block, 1, 1)](x, y, out, n, block, 1, stream=side.cuda_stream)
    torch.cuda.current_stream().synchronize()
    busy = not side.query()
    check("the launch waits on its stream, not the current one",
          busy and bool((out == -1.0).all()), "out[0] = %g, side busy %s" % (out[0].item(), busy))
    side.synchronize()
    check("the launch ran on the given stream after its queued work",
          bool((out == 3.0).all()), "out[0] = %g" % out[0].item())
    check("the current stream is unchanged",
          torch.cuda.current_stream().cuda_stream == before)
    out.fill_(-1.0)
    compiled[(n // block, 1, 1)](x, y, out, n, block, 1)
    torch.cuda.synchronize()
    check("without stream=, the current stream", bool((out == 3.0).all()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
