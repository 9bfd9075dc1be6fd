import triton
import triton.language as tl


@triton.jit
def hinted(X, Y, Z, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    m = cols < N
    keep = tl.load(X + cols, mask=m, other=0., eviction_policy="evict_last")
    once = tl.load(Y + cols, cache_modifier=".cg", eviction_policy="evict_first")
    tl.store(Z + cols, keep + once, mask=m, eviction_policy="evict_first")
    tl.store(Z + BLOCK + cols, once, cache_modifier=".cs")


@triton.jit
def spin(FLAG, OUT):
    # A volatile load reads memory every iteration (no stale L1 line).
    v = tl.load(FLAG, volatile=True)
    while v == 0:
        v = tl.load(FLAG, volatile=True)
    tl.store(OUT, v)


@triton.jit
def block_ptr_hints(X, Y, N, BLOCK: tl.constexpr):
    src = tl.make_block_ptr(X, (N,), (1,), (0,), (BLOCK,), (0,))
    dst = tl.make_block_ptr(Y, (N,), (1,), (0,), (BLOCK,), (0,))
    x = tl.load(src, boundary_check=(0,), eviction_policy="evict_last")
    tl.store(dst, x, boundary_check=(0,), eviction_policy="evict_first")


@triton.jit
def wait_then_store(FLAG, OUT):
    # The loop's result is unused: only the volatile load keeps it alive.
    while tl.load(FLAG, volatile=True) == 0:
        pass
    tl.store(OUT, 1)
