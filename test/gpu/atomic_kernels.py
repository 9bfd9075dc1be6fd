# Atomic max / min on fp32 / fp64 / uint32 and Triton's sem / scope, to compare
# Triton 3.6 and Kiln (test/gpu/cases_atomics.py). Written for Kiln's tests.
import triton
import triton.language as tl


@triton.jit
def minmax(X, U, D, FMAX, FMIN, UMAX, UMIN, DMAX, DMIN, N, SLOTS: tl.constexpr,
           BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    slot = offs % SLOTS
    x = tl.load(X + offs, mask=m)
    tl.atomic_max(FMAX + slot, x, mask=m)
    tl.atomic_min(FMIN + slot, x, mask=m, sem="relaxed")
    u = tl.load(U + offs, mask=m)
    tl.atomic_max(UMAX + slot, u, mask=m, scope="gpu")
    tl.atomic_min(UMIN + slot, u, mask=m, sem="release")
    d = tl.load(D + offs, mask=m)
    tl.atomic_max(DMAX + slot, d, mask=m, sem="acquire", scope="gpu")
    tl.atomic_min(DMIN + slot, d, mask=m)


@triton.jit
def relaxed_count(C, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(C + offs % 4, 1, mask=offs < N, sem="relaxed", scope="gpu")
    tl.atomic_add(C + 4, 1, sem="relaxed", scope="cta")
