"""Session 57, call 7: which part of Kiln's chunked LayerNorm forward (examples/layernorm/
layer_norm_fast.py, _norm_fwd_chunked) makes it slower than torch.compile's two-pass kernel
at 16384 columns (65536 rows: 3956 against 4196 GB/s on the H200, fp16; Triton running
Kiln's kernel measures the same as Kiln, so it is the kernel). A two-pass forward with
switches, one row per program, timed under the compiler that runs this script
(`python3 -m kiln.run` or plain Triton), with torch.compile's kernel and a copy beside it.
    REVERSE      pass 2 walks the chunks backwards (Kiln's kernel) or forwards
    Y_FIRST      y stored evict_first (Kiln's) or plainly
    WB_LAST      w and b loaded evict_last
    SHIFT        pass 1 sums x - x[0] (Kiln's) or x (no first load)
"""
import sys
import torch
import triton
import triton.language as tl


@triton.jit
def two_pass(X, Y, W, B, MEAN, RSTD, stride, N, eps, BLOCK_N: tl.constexpr,
             REVERSE: tl.constexpr, Y_FIRST: tl.constexpr, WB_LAST: tl.constexpr,
             SHIFT: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = X + row * stride
    y_row = Y + row * stride
    span = tl.arange(0, BLOCK_N)
    shift = 0.
    if SHIFT:
        shift = tl.load(x_row).to(tl.float32)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + span
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0., eviction_policy="evict_last").to(tl.float32)
        d = tl.where(mask, x - shift, 0.)
        acc += d
        acc2 += d * d
    s1 = tl.sum(acc, axis=0) / N
    s2 = tl.sum(acc2, axis=0) / N
    mean = shift + s1
    rstd = 1 / tl.sqrt(tl.maximum(s2 - s1 * s1, 0.) + eps)
    tl.store(MEAN + row, mean)
    tl.store(RSTD + row, rstd)
    chunks = tl.cdiv(N, BLOCK_N)
    for i in range(0, chunks):
        if REVERSE:
            cols = (chunks - 1 - i) * BLOCK_N + span
        else:
            cols = i * BLOCK_N + span
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0., eviction_policy="evict_first").to(tl.float32)
        if WB_LAST:
            w = tl.load(W + cols, mask=mask, eviction_policy="evict_last").to(tl.float32)
            b = tl.load(B + cols, mask=mask, eviction_policy="evict_last").to(tl.float32)
        else:
            w = tl.load(W + cols, mask=mask).to(tl.float32)
            b = tl.load(B + cols, mask=mask).to(tl.float32)
        y = (x - mean) * rstd * w + b
        if Y_FIRST:
            tl.store(y_row + cols, y, mask=mask, eviction_policy="evict_first")
        else:
            tl.store(y_row + cols, y, mask=mask)


def bench(fn, flush):
    for _ in range(5):
        fn()
    times = []
    for _ in range(40):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(100_000)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2]


def main():
    who = sys.argv[1]
    flush = torch.empty(256 << 18, dtype=torch.float32, device="cuda")
    compiled = torch.compile(torch.nn.functional.layer_norm, dynamic=False)
    variants = [("kiln-like", 1, 1, 0, 1), ("forward", 0, 1, 0, 1), ("fwd+y plain", 0, 0, 0, 1),
                ("fwd+y plain+wb last", 0, 0, 1, 1), ("fwd+y plain+wb last+no shift", 0, 0, 1, 0),
                ("reverse+y plain+wb last", 1, 0, 1, 1)]
    for dt in (torch.float16, torch.bfloat16):
        for m in (65536, 4096):
            n = 16384
            x = torch.randn(m, n, device="cuda", dtype=dt)
            w = torch.randn(n, device="cuda", dtype=dt)
            b = torch.randn(n, device="cuda", dtype=dt)
            ref = torch.nn.functional.layer_norm(x.float(), (n,), w.float(), b.float(), 1e-5)
            nbytes = 2 * x.numel() * x.element_size() + 2 * n * x.element_size()
            y = torch.empty_like(x)
            mean = torch.empty(m, device="cuda", dtype=torch.float32)
            rstd = torch.empty_like(mean)
            line = [f"{who} {str(dt)[6:]} {m}x{n}:"]
            for chunk, warps in ((4096, 8), (2048, 8), (2048, 4)):
                for name, rev, yf, wbl, sh in variants:
                    def run():
                        two_pass[(m,)](x, y, w, b, mean, rstd, x.stride(0), n, 1e-5,
                                       BLOCK_N=chunk, REVERSE=rev, Y_FIRST=yf, WB_LAST=wbl,
                                       SHIFT=sh, num_warps=warps)
                    y.fill_(float("nan"))
                    run()
                    err = (y.float() - ref).abs().max().item()
                    ms = bench(run, flush)
                    line.append(f"  {chunk}/{warps} {name}: {nbytes / ms / 1e6:.0f} GB/s (err {err:.1e})")
            ms = bench(lambda: compiled(x, (n,), w, b, 1e-5), flush)
            line.append(f"  torch.compile: {nbytes / ms / 1e6:.0f} GB/s")
            ms = bench(lambda: y.copy_(x), flush)
            line.append(f"  copy: {nbytes / ms / 1e6:.0f} GB/s")
            print("\n".join(line), flush=True)


if __name__ == "__main__":
    main()
