"""A kernel Kiln compiles as Triton does, with a warning
(test_dropin_warnings.py): Triton drops the keyword of `range`."""
import triton
import triton.language as tl


@triton.jit
def strided_sum(X, OUT, N, S):
    acc = tl.cast(0, dtype=tl.int64)
    for i in range(0, N, step=S):
        acc += tl.load(X + i)
    tl.store(OUT, acc)
