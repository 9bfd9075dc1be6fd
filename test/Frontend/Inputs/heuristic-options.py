# Heuristics that set the launch options num_warps / num_stages, the second
# through a host call Kiln cannot evaluate (FlagAttention's paged attention).
import torch
import triton
import triton.language as tl


def host_stages():
    return 1 if torch.cuda.get_device_capability() == (8, 0) else 2


@triton.heuristics({"num_warps": lambda args: 8 if args["N"] >= 1024 else 4})
@triton.jit
def by_size(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(X + offs, tl.load(X + offs) + 1)


@triton.heuristics({"num_stages": lambda args: host_stages(), "BLOCK": lambda args: 64})
@triton.jit
def host_staged(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs) + 1)


@triton.heuristics({"num_warps": lambda args: 0})
@triton.jit
def bad_warps(X):
    tl.store(X, 1.0)
