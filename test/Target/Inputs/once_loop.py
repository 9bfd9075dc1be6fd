import triton
import triton.language as tl


@triton.jit
def once_loop(X, Out, n, BLOCK: tl.constexpr):
    # lightllm's decode kernels run a block's body at most once this way.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    runs = tl.where(pid * BLOCK < n, 1, 0)
    for i in range(0, runs, 1):
        x = tl.load(X + offs + i, mask=offs < n, other=0.0)
        tl.store(Out + offs, x * 2.0, mask=offs < n)


@triton.jit
def counted_loop(X, Out, n, reps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    for i in range(0, reps, 1):
        x = tl.load(X + offs + i, mask=offs < n, other=0.0)
        tl.store(Out + offs, x * 2.0, mask=offs < n)
