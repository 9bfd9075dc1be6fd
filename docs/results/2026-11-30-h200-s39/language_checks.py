"""This session's language fixes on the GPU, run under Triton (python3) and under Kiln
(python3 -m kiln.run); prints one line per check with a digest of its output, so the two runs
can be diffed: a `stride: tl.int64` parameter whose product with the program id passes 2**31
(the i32 Kiln used wrapped), fp8 times bf16 / fp16 / another fp8, and kernels made by
`f = triton.jit(f)` / `f = triton.heuristics(...)(f)`."""
import hashlib

import torch
import triton
import triton.language as tl


@triton.jit
def strided_fill(x_ptr, stride: tl.int64, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + pid * stride + offs, (pid + offs).to(tl.float32))


@triton.jit
def fp8_mixed(q_ptr, r_ptr, h_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.load(q_ptr + offs)
    r = tl.load(r_ptr + offs)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out_ptr + offs, (q * b).to(tl.float32) + (q * h).to(tl.float32) + (q + r).to(tl.float32)
             + (q / h).to(tl.float32))


def bump(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n) + 1.0
    if EVEN:
        v = v * 2
    tl.store(x_ptr + offs, v, mask=offs < n)


bump = triton.jit(bump)
bump = triton.heuristics({"EVEN": lambda args: args["n"] % 2 == 0})(bump)


def digest(t):
    return hashlib.sha256(t.cpu().contiguous().view(torch.uint8).numpy().tobytes()).hexdigest()[:16]


torch.manual_seed(0)
# 70000 programs x 32768: offsets up to 2.29e9, past 2**31.
programs, stride, block = 70000, 32768, 128
x = torch.full((programs * stride,), -1.0, device="cuda")
strided_fill[(programs,)](x, stride, BLOCK=block)
torch.cuda.synchronize()
rows = x.view(programs, stride)[:, :block]
want = (torch.arange(programs, device="cuda")[:, None] + torch.arange(block, device="cuda")[None, :]).float()
print("strided_fill int64 stride: equal to the expected values:", bool(torch.equal(rows, want)),
      "| tail rows written:", bool((rows[-1] == want[-1]).all()))
del x, rows, want

n = 4096
q = torch.randn(n, device="cuda").to(torch.float8_e4m3fn)
r = torch.randn(n, device="cuda").to(torch.float8_e5m2)
h = (torch.rand(n, device="cuda") + 0.5).half()
b = torch.randn(n, device="cuda").bfloat16()
out = torch.full((n,), float("nan"), device="cuda")
fp8_mixed[(n // 256,)](q, r, h, b, out, BLOCK=256)
ref = ((q.float() * b.float()) + (q.half() * h).float() + (q.half() + r.half()).float()
       + (q.float() / h.float()))
print("fp8_mixed digest", digest(out), "max |out - torch|", (out - ref).abs().max().item())

y = torch.arange(256, device="cuda", dtype=torch.float32)
bump[(1,)](y, 200, BLOCK=256)
bump[(1,)](y, 101, BLOCK=256)
print("bump (jit and heuristics by call) digest", digest(y), "first", y[:3].tolist(), "last", y[199:202].tolist())
