"""Spellings whose meaning is Triton's own (test/gpu/compat_kernels.py): the same file under
Triton 3.6 and Kiln must give the same outputs, or fail to compile under both."""
import os

import torch

from kcompare import DEV, HERE, close, exact, gen, run_case, triton_module

PATH = os.path.join(HERE, "compat_kernels.py")


def cases(results):
    # range(0, N, step=S): Triton drops `step=`, the loop runs N times (sum 0..N-1).
    n, s = 100, 7
    x = torch.arange(n, device=DEV, dtype=torch.int64)

    def make_range():
        return [x, torch.empty(2, device=DEV, dtype=torch.int64), n, s]

    def range_check(ks, ts):
        ok, detail = exact(ks, ts)
        return ok, detail + f"; kiln sum {int(ks[0][0])} count {int(ks[0][1])} " \
                            f"(step 1: {n * (n - 1) // 2} / {n})"

    run_case(results, "range(0, N, step=S) and tl.cast(0, tl.int64)", PATH, "range_keyword",
             (1,), make_range, [1], {}, range_check)

    # tl.range(..., loop_unroll_factor=UF): trip counts 0, below, at and past UF, a step of 3,
    # an empty range (hi < lo); acc's bits show the iterations' order.
    xu = torch.randn(40 * 64, device=DEV, generator=gen(7))
    for lo, hi, step, uf in ((0, 0, 1, 4), (0, 3, 1, 4), (0, 4, 1, 4), (0, 5, 1, 4),
                             (2, 37, 1, 4), (1, 38, 3, 4), (5, 2, 1, 4), (0, 19, 2, 3)):
        run_case(results, f"tl.range({lo}, {hi}, {step}, loop_unroll_factor={uf})", PATH,
                 "unrolled_range", (1,),
                 lambda lo=lo, hi=hi: [xu, torch.empty(64, device=DEV),
                                       torch.empty(1, device=DEV, dtype=torch.int32), lo, hi],
                 [1, 2], dict(STEP=step, UF=uf, BLOCK=64), exact)

    m = 1000
    xf = torch.randn(m, device=DEV, generator=gen(5))
    run_case(results, "math constants and a version-guarded helper (gelu + softplus)", PATH,
             "gelu_softplus", (4,),
             lambda: [xf, torch.empty(m, device=DEV), m], [1], dict(BLOCK=256),
             close(4e-6, 1e-6))

    # int8 & 0x80: record whether Triton compiles it; Kiln rejects the constant.
    xi = torch.randint(-128, 128, (m,), device=DEV, dtype=torch.int8, generator=gen(6))
    tmod, kmod = triton_module(PATH)
    outcome = {}
    for who, mod in (("triton", tmod), ("kiln", kmod)):
        y = torch.zeros(m, device=DEV, dtype=torch.int32)
        try:
            mod.int8_mask[(4,)](xi, y, m, BLOCK=256)
            torch.cuda.synchronize()
            outcome[who] = ("ran", y.clone())
        except Exception as e:  # noqa: BLE001: a compile error is the outcome here
            outcome[who] = ("error", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
    t, k = outcome["triton"], outcome["kiln"]
    if t[0] == "error" and k[0] == "error":
        results.append(("int8 & 0x80 (constant out of int8's range)", True,
                        f"both reject it; triton: {t[1]}; kiln: {k[1]}"))
    elif t[0] == "ran" and k[0] == "ran":
        ok, detail = exact([k[1]], [t[1]])
        results.append(("int8 & 0x80 (constant out of int8's range)", ok, detail))
    else:
        tri = "ran, first values " + str(t[1][:6].tolist()) if t[0] == "ran" else t[1]
        kil = "ran" if k[0] == "ran" else k[1]
        results.append(("int8 & 0x80 (constant out of int8's range)", False,
                        f"triton {tri}; kiln {kil}"))

    # sglang's spellings: an optional pointer tested as a condition, given and None.
    nb, blk = 300, 128
    starts = torch.tensor([5, 1000, -7], device=DEV, dtype=torch.int32)
    for given in (True, False):
        run_case(results, f"if START: (pointer {'given' if given else 'None'})", PATH,
                 "optional_start", (3,),
                 lambda given=given: [torch.empty(nb, device=DEV, dtype=torch.int32),
                                      starts if given else None, nb],
                 [0], dict(BLOCK=blk), exact)
    # `is_lead and not SKIP` with SKIP: constexpr False, its body never compiled.
    for skip in (True, False):
        run_case(results, f"is_lead and not SKIP (SKIP={skip})", PATH, "lead_only", (4,),
                 lambda: [torch.full((1,), 3.5, device=DEV), torch.zeros(6, device=DEV)],
                 [1], dict(SKIP=skip), exact)
    # (tl.static_range if N <= 4 else range)(N), unrolled and as a loop; a runtime other.
    for n_iter in (3, 6):
        xs = torch.randn(n_iter * blk, device=DEV, generator=gen(7))
        masked = torch.randn(blk, device=DEV, generator=gen(8))
        run_case(results, f"(tl.static_range if N <= 4 else range)(N), N={n_iter}", PATH,
                 "chosen_iter", (1,),
                 lambda xs=xs, masked=masked: [xs, masked, torch.empty(blk, device=DEV),
                                               -2.5, 100],
                 [2], dict(N=n_iter, BLOCK=blk), close(1e-6, 1e-6))
