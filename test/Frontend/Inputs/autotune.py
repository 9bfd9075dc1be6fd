# A kernel with FlashAttention's decorator shapes: configs from a host
# function, heuristics computing constexprs from the launch arguments.
import triton
import triton.language as tl

MAX_THREADS_PER_BLOCK = 1024


def warp_configs():
    # As FlashAttention's triton_autotune_configs(): one config per warp count.
    configs = []
    max_threads_per_block = MAX_THREADS_PER_BLOCK
    # (FlashAttention asks torch for the warp size; that is in the unit tests,
    # the code generator does not take `import torch` yet.)
    warp_size = 32
    return [triton.Config({}, num_warps=warp_count) for warp_count in [1, 2, 4, 8, 16, 32]
            if warp_count * warp_size <= max_threads_per_block]


def block_n(args):
    return min(triton.next_power_of_2(args["N"]), 65536 // args["X"].dtype.itemsize)


@triton.autotune(configs=warp_configs(), key=["N", "HAS_B"])
@triton.heuristics({"HAS_B": lambda args: args["B"] is not None})
@triton.heuristics(values={"BLOCK_N": block_n})
@triton.jit
def add_rows(X, B, Y, stride, N, BLOCK_N: tl.constexpr, HAS_B: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
    if HAS_B:
        x += tl.load(B + cols, mask=mask, other=0.0)
    tl.store(Y + row * stride + cols, x, mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2),
                          triton.Config(kwargs=dict(BLOCK=256), num_warps=8, num_stages=4, maxnreg=128)],
                 key=["N"])
@triton.jit
def copy(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < N), mask=offs < N)


def keep_unsplit(configs, named_args, **kwargs):
    # Tutorial 09's prune: subtiled configs only with a flattened loop.
    return [c for c in configs if not (c.kwargs.get("HALVES", True) and kwargs["FLAT"] is False)]


@triton.autotune(configs=[triton.Config({"BLOCK": b, "HALVES": s}) for b in (64, 128)
                          for s in (True, False)],
                 key=["n"], prune_configs_by={"early_config_prune": keep_unsplit})
@triton.jit
def pruned_copy(src, dst, n, BLOCK: tl.constexpr, HALVES: tl.constexpr, FLAT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)
