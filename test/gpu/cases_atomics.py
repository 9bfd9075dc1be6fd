"""Atomics (test/gpu/atomic_kernels.py): fp32 / fp64 max and min (Triton's
sign-split on the bits), uint32 max / min, and sem / scope, under Triton and
Kiln from the same initial memory. The final memory of max / min / add does not
depend on the order the atomics ran in, so both must equal the torch reference
bitwise."""
import os

import torch

from kcompare import DEV, HERE, gen, triton_module

PATH = os.path.join(HERE, "atomic_kernels.py")


def _run(results, name, kernel, grid, make, reference, meta, judged=("kiln", "triton")):
    """`judged`: whose result must equal torch's; the others' mismatches are
    reported in the detail (a known Triton difference), not failed."""
    try:
        tmod, kmod = triton_module(PATH)
        got = {}
        for who, mod in (("triton", tmod), ("kiln", kmod)):
            args, outs = make()
            getattr(mod, kernel)[grid](*args, **meta)
            torch.cuda.synchronize()
            got[who] = [o.clone() for o in outs]
        want = reference()
        notes = []
        for who in ("kiln", "triton"):
            for i, (g, w) in enumerate(zip(got[who], want)):
                if not torch.equal(g.view(torch.uint8), w.view(torch.uint8)):
                    bad = (g.view(torch.uint8) != w.view(torch.uint8)).sum().item()
                    text = f"{who}: output {i}: {bad} bytes of {w.numel()} elements differ from torch"
                    if who in judged:
                        results.append((name, False, text))
                        return
                    notes.append(text)
        results.append((name, True, "bitwise equal to torch under " + " and ".join(judged) +
                        ("; not judged: " + "; ".join(notes) if notes else "")))
    except Exception as e:  # a compile or launch error is a failed case
        results.append((name, False, f"{type(e).__name__}: {str(e)[:300]}"))


def cases(results):
    n, slots, block = 5000, 8, 256
    g = gen(91)
    x = torch.randn(n, device=DEV, generator=g) * 100
    x[::7] = -x[::7].abs()  # both signs in every slot
    x[3] = -0.0
    u = torch.randint(0, 2**31 - 1, (n,), device=DEV, generator=g, dtype=torch.int64)
    u[::5] += 2**31  # values above INT32_MAX: an unsigned compare is needed
    u32 = u.to(torch.int64).to(torch.uint32) if hasattr(torch, "uint32") else None
    d = torch.randn(n, device=DEV, generator=g, dtype=torch.float64) * 1e3

    def init():
        fmax = torch.full((slots,), float("-inf"), device=DEV)
        fmin = torch.full((slots,), float("inf"), device=DEV)
        umax = torch.zeros(slots, device=DEV, dtype=torch.int64).to(torch.uint32)
        umin = torch.full((slots,), 2**32 - 1, device=DEV, dtype=torch.int64).to(torch.uint32)
        dmax = torch.full((slots,), -1e300, device=DEV, dtype=torch.float64)
        dmin = torch.full((slots,), 1e300, device=DEV, dtype=torch.float64)
        return [fmax, fmin, umax, umin, dmax, dmin]

    def make():
        outs = init()
        return [x, u32, d, *outs, n], outs

    def reference():
        idx = torch.arange(n, device=DEV) % slots
        ref = init()
        for s in range(slots):
            sel = idx == s
            ref[0][s] = torch.maximum(ref[0][s], x[sel].max())
            ref[1][s] = torch.minimum(ref[1][s], x[sel].min())
            ref[2][s] = u[sel].max().to(torch.uint32)
            ref[3][s] = u[sel].min().to(torch.uint32)
            ref[4][s] = d[sel].max()
            ref[5][s] = d[sel].min()
        return ref

    _run(results, f"atomic max/min fp32 fp64 u32 n={n} slots={slots} (sem/scope variants)",
         "minmax", (triton_cdiv(n, block),), make, reference,
         dict(SLOTS=slots, BLOCK=block, num_warps=4))

    # -0.0 arriving after a negative result: max must give -0.0, min keep the
    # negative. Triton splits by `x >= 0` and sends -0.0 to the signed atom,
    # which gets both wrong; Kiln splits by the sign bit (only Kiln is judged).
    nz = 512

    def make_signed_zero():
        fmax = torch.full((slots,), -5.0, device=DEV)
        fmin = torch.full((slots,), -5.0, device=DEV)
        dmax = torch.full((slots,), -5.0, device=DEV, dtype=torch.float64)
        dmin = torch.full((slots,), -5.0, device=DEV, dtype=torch.float64)
        zu = torch.zeros(slots, device=DEV, dtype=torch.int64).to(torch.uint32)
        zu2 = zu.clone()
        outs = [fmax, fmin, zu, zu2, dmax, dmin]
        xz = torch.full((nz,), -0.0, device=DEV)
        uz = torch.zeros(nz, device=DEV, dtype=torch.int64).to(torch.uint32)
        dz = torch.full((nz,), -0.0, device=DEV, dtype=torch.float64)
        return [xz, uz, dz, *outs, nz], outs

    def signed_zero_reference():
        z32 = torch.full((slots,), -0.0, device=DEV)
        m32 = torch.full((slots,), -5.0, device=DEV)
        zu = torch.zeros(slots, device=DEV, dtype=torch.int64).to(torch.uint32)
        return [z32, m32, zu, zu.clone(), z32.double(), m32.double()]

    _run(results, "atomic max/min of -0.0 onto -5.0 (fp32, fp64)", "minmax",
         (triton_cdiv(nz, block),), make_signed_zero, signed_zero_reference,
         dict(SLOTS=slots, BLOCK=block, num_warps=4), judged=("kiln",))

    def make_count():
        c = torch.zeros(5, device=DEV, dtype=torch.int32)
        return [c, n], [c]

    def count_reference():
        c = torch.bincount(torch.arange(n, device=DEV) % 4, minlength=4).to(torch.int32)
        return [torch.cat([c, torch.tensor([triton_cdiv(n, block)], device=DEV,
                                           dtype=torch.int32)])]

    _run(results, f"relaxed atomic_add counts n={n}", "relaxed_count", (triton_cdiv(n, block),),
         make_count, count_reference, dict(BLOCK=block, num_warps=4))


    # fp16 / bf16 atomic_add: a contiguous block (a vector atom on sm_90) and
    # scattered slots. Values 1 and 2, at most 125 per slot: every partial sum
    # is an integer <= 250, exact in bf16, so the order the atoms land in does
    # not matter.
    n16, block16, slots16 = 8000, 1024, 64
    for dt in (torch.float16, torch.bfloat16):
        xs = (torch.randint(1, 3, (n16,), device=DEV, generator=g)).to(dt)

        def make_add16(xs=xs, dt=dt):
            out = torch.zeros(block16, device=DEV, dtype=dt)
            scat = torch.zeros(slots16, device=DEV, dtype=dt)
            return [xs, out, scat, n16], [out, scat]

        def add16_reference(xs=xs, dt=dt):
            v = xs.double()
            idx = torch.arange(n16, device=DEV)
            out = torch.zeros(block16, device=DEV, dtype=torch.float64)
            out.index_add_(0, idx % block16, v)
            scat = torch.zeros(slots16, device=DEV, dtype=torch.float64)
            scat.index_add_(0, idx % slots16, v)
            return [out.to(dt), scat.to(dt)]

        _run(results, f"atomic_add {str(dt)[6:]} contiguous and scattered n={n16}", "add16",
             (triton_cdiv(n16, block16),), make_add16, add16_reference,
             dict(SLOTS=slots16, BLOCK=block16, num_warps=4))


def triton_cdiv(a, b):
    return (a + b - 1) // b
