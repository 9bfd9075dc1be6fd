"""tl.dot (test/gpu/dot_kernels.py, examples/matmul/): Kiln against Triton 3.6 and against
torch.matmul, with the tolerances of Triton's own test_dot (test_core.py): rtol 1e-2 with
atol 1e-3 for fp16 / fp32 ieee products accumulated in fp32, atol 1e-2 when the inputs or
the output are rounded harder (tf32, bf16, fp16 output, fp8), exact for int8."""
import math
import os

import torch

from kcompare import DEV, HERE, ROOT, run_case, gen

KERNELS = os.path.join(HERE, "dot_kernels.py")
MATMUL = os.path.join(ROOT, "examples", "matmul", "matmul.py")
BMM = os.path.join(ROOT, "examples", "matmul", "batched_matmul.py")
ATTN = os.path.join(ROOT, "examples", "matmul", "attention_fwd.py")

TORCH = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32,
         "fp64": torch.float64, "i8": torch.int8, "i32": torch.int32,
         "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}


def rand(t, shape, seed):
    g = gen(seed)
    if t == "i8":
        return torch.randint(-8, 8, shape, device=DEV, generator=g, dtype=torch.int8)
    x = torch.randn(shape, device=DEV, generator=g, dtype=torch.float32)
    return x.to(TORCH[t])


def tolerance(t_in, t_out, precision):
    if t_in == "i8":
        return None  # exact
    if t_in == "bf16" or t_out == "fp16" or t_in.startswith("fp8") or \
            (t_in == "fp32" and precision == "tf32"):
        return 1e-2, 1e-2
    return 1e-2, 1e-3


def against(ref_fn, rtol_atol):
    """A check comparing Kiln with Triton and both with torch's result `ref_fn()`."""
    def check(ks, ts):
        ref = ref_fn()
        details = []
        for who, outs in (("kiln", ks), ("triton", ts)):
            got = outs[0]
            if rtol_atol is None:
                if not torch.equal(got.to(torch.int64), ref.to(torch.int64)):
                    n = (got.to(torch.int64) != ref.to(torch.int64)).sum().item()
                    return False, f"{who}: {n} of {ref.numel()} differ from torch"
                continue
            rtol, atol = rtol_atol
            g64, r64 = got.double(), ref.double()
            if torch.isnan(g64).any():
                return False, f"{who}: NaN in the output (unwritten elements?)"
            err = (g64 - r64).abs().max().item()
            if not torch.allclose(g64, r64, rtol=rtol, atol=atol):
                return False, f"{who}: max abs err {err:.3g} vs torch (rtol {rtol}, atol {atol})"
            details.append(f"{who} {err:.2g}")
        if rtol_atol is not None:
            k64, t64 = ks[0].double(), ts[0].double()
            if not torch.allclose(k64, t64, rtol=rtol_atol[0], atol=rtol_atol[1]):
                return False, "kiln vs triton: max abs err %.3g" % (k64 - t64).abs().max().item()
        return True, "max abs err vs torch: " + (", ".join(details) or "exact")
    return check


def block_case(results, t_in, t_out, bm, bn, bk, precision="tf32", has_acc=0, epilogue=0,
               trans_b=0, num_warps=4):
    name = (f"dot_block {t_in}->{t_out} {bm}x{bn}x{bk} {precision} acc={has_acc} "
            f"epilogue={epilogue} trans_b={trans_b} warps={num_warps}")
    seed = bm * 7 + bn * 3 + bk + epilogue

    def make():
        a = rand(t_in, (bm, bk), seed)
        b = rand(t_in, (bn, bk) if trans_b else (bk, bn), seed + 1)
        acc = rand(t_out, (bm, bn), seed + 2) if t_out != "i32" else \
            torch.randint(-100, 100, (bm, bn), device=DEV, generator=gen(seed + 2),
                          dtype=torch.int32)
        c = torch.empty((bm, bn), device=DEV, dtype=TORCH[t_out])
        return [a, b, c, acc]

    def reference():
        a, b, _, acc = make()
        wide = torch.float64 if t_in in ("fp32", "fp64") and precision != "tf32" else \
            torch.float32
        if t_in == "i8":
            wide = torch.int64
        bb = b.t() if trans_b else b
        c = a.to(wide) @ bb.to(wide) if t_in != "i8" else \
            (a.to(torch.float64) @ bb.to(torch.float64)).to(torch.int64)
        if has_acc:
            c = c + acc.to(c.dtype)
        if t_out == "fp16":
            c = c.to(torch.float16).to(torch.float32)
        if epilogue == 1:
            c = torch.where(c >= 0, c, 0.01 * c)
        elif epilogue == 2:
            c = c * 2 + c.sum(dim=1, keepdim=True)
        elif epilogue == 3:
            c = c + a[:, :1].to(c.dtype)
        return c.to(TORCH[t_out])

    tol = tolerance(t_in, t_out, precision)
    if epilogue == 2 and tol is not None:  # row sums add up bn rounded products
        tol = (tol[0], tol[1] * bn)
    run_case(results, name, KERNELS, "dot_block", (1,), make, [2],
             dict(BM=bm, BN=bn, BK=bk, PRECISION=precision, HAS_ACC=has_acc,
                  EPILOGUE=epilogue, TRANS_B=trans_b, num_warps=num_warps),
             against(reference, tol))


def dot3d_case(results, t_in, t_out, bb, bm, bn, bk, precision="tf32", has_acc=0,
               num_warps=4):
    """A 3-D (batched) tl.dot in one program, against torch.bmm and Triton."""
    seed = bb * 5 + bm + bn * 3 + bk

    def make():
        a = rand(t_in, (bb, bm, bk), seed)
        b = rand(t_in, (bb, bk, bn), seed + 1)
        acc = rand(t_out, (bb, bm, bn), seed + 2) if t_out != "i32" else \
            torch.randint(-100, 100, (bb, bm, bn), device=DEV, generator=gen(seed + 2),
                          dtype=torch.int32)
        return [a, b, torch.empty((bb, bm, bn), device=DEV, dtype=TORCH[t_out]), acc]

    def reference():
        a, b, _, acc = make()
        if t_in == "i8":
            c = torch.bmm(a.double(), b.double()).to(torch.int64)
        else:
            wide = torch.float64 if t_in == "fp32" and precision != "tf32" else torch.float32
            c = torch.bmm(a.to(wide), b.to(wide))
        if has_acc:
            c = c + acc.to(c.dtype)
        return c.to(TORCH[t_out])

    run_case(results, f"dot3d {t_in}->{t_out} {bb}x{bm}x{bn}x{bk} {precision} acc={has_acc} "
             f"warps={num_warps}", KERNELS, "dot3d", (1,), make, [2],
             dict(BB=bb, BM=bm, BN=bn, BK=bk, PRECISION=precision, HAS_ACC=has_acc,
                  num_warps=num_warps),
             against(reference, tolerance(t_in, t_out, precision)))


def kloop_case(results, m, n, k, bm, bn, bk, num_warps=4):
    def make():
        a = rand("fp16", (m, k), 11)
        b = rand("fp16", (k, n), 12)
        return [a, b, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k]

    def reference():
        a, b = make()[:2]
        return a.float() @ b.float()

    run_case(results, f"dot_kloop fp16 {m}x{n}x{k} blocks {bm}x{bn}x{bk} warps={num_warps}",
             KERNELS, "dot_kloop", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make, [2],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps),
             against(reference, (1e-2, 1e-3)))


def chain_case(results, t_in, m, n, k, bm, bn, bk, num_warps=4, num_stages=3):
    """dot_kloop_chain: acc = dot(a1, b1, acc); acc = dot(a2, b2, acc) per K step."""
    def make():
        a1, a2 = rand(t_in, (m, k), 91), rand(t_in, (m, k), 92)
        b1, b2 = rand(t_in, (k, n), 93), rand(t_in, (n, k), 94)
        return [a1, b1, a2, b2, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k]

    def reference():
        a1, b1, a2, b2 = make()[:4]
        return a1.float() @ b1.float() + a2.float() @ b2.float().t()

    run_case(results, f"dot_kloop_chain {t_in} {m}x{n}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps} stages={num_stages}",
             KERNELS, "dot_kloop_chain", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make, [4],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps, num_stages=num_stages),
             against(reference, tolerance(t_in, "fp32", "tf32")))


def strided_case(results, t_in, m, n, k, bm, bn, bk, layout, precision="tf32", num_warps=4):
    """dot_kloop_strided with A and B views of `layout`: "nt" (B stored N x K, read
    K-contiguous), "nn" (B stored K x N, N contiguous), "gather" (every second element
    of both: nothing contiguous), "tn" (A stored K x M, read M-contiguous; B as "nn"),
    "tt" (A as "tn", B as "nt")."""
    step = 2 if layout == "gather" else 1

    def make():
        a = rand(t_in, (k, m), 21).t() if layout[0] == "t" else \
            rand(t_in, (m, k * step), 21)[:, ::step]
        b = rand(t_in, (k, n), 22) if layout in ("nn", "tn") else \
            rand(t_in, (n, k * step), 22)[:, ::step].t()
        return [a, b, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k,
                a.stride(0), a.stride(1), b.stride(0), b.stride(1)]

    def reference():
        a, b = make()[:2]
        return a.float() @ b.float()

    tol = tolerance(t_in, "fp32", precision)
    if t_in == "fp32" and precision == "tf32":
        # wgmma reads tf32 operands from shared memory with their low 13 bits
        # dropped (under Triton too): the error of a K-term sum grows with
        # sqrt(K), past 1e-2 at K = 256 (both backends 0.028-0.035 at K <= 100).
        tol = (1e-2, 6e-3 * math.sqrt(k))
    run_case(results, f"dot_kloop_strided {t_in} {layout} {m}x{n}x{k} blocks {bm}x{bn}x{bk} "
             f"{precision} warps={num_warps}",
             KERNELS, "dot_kloop_strided", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make, [2],
             dict(BM=bm, BN=bn, BK=bk, PRECISION=precision, num_warps=num_warps),
             against(reference, tol))


def int8_case(results, m, n, k, bm, bn, bk, layout, num_warps=4):
    """dot_kloop_int8, exact: "nt" (B stored N x K, K-contiguous: s8 wgmma on
    sm_90) or "nn" (B stored K x N: mma.sync)."""
    def make():
        a = rand("i8", (m, k), 41)
        b = rand("i8", (k, n), 42) if layout == "nn" else rand("i8", (n, k), 42).t()
        return [a, b, torch.empty((m, n), device=DEV, dtype=torch.int32), m, n, k,
                a.stride(0), a.stride(1), b.stride(0), b.stride(1)]

    def reference():
        a, b = make()[:2]
        return (a.to(torch.float64) @ b.to(torch.float64)).to(torch.int32)

    run_case(results, f"dot_kloop_int8 {layout} {m}x{n}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps}",
             KERNELS, "dot_kloop_int8", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make, [2],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps), against(reference, None))


def scaled_case(results, t_in, m, n, k, bm, bn, bk, a_mmajor, num_warps):
    """dot_scaled_kloop: B rows scaled by exp(S[k]) * T[k // BK] in fp32 before the dot."""
    def make():
        a = rand(t_in, (k, m), 31).t() if a_mmajor else rand(t_in, (m, k), 31)
        b = rand(t_in, (k, n), 32)
        s = torch.randn(k, device=DEV, generator=gen(33)) * 0.5
        t = torch.rand(triton_cdiv(k, bk), device=DEV, generator=gen(34)) + 0.5
        return [a, b, s, t, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k,
                a.stride(0), a.stride(1)]

    def reference():
        a, b, s, t = make()[:4]
        scale = torch.exp(s) * t.repeat_interleave(bk)[:k]
        b = (b.float() * scale[:, None]).to(b.dtype)
        return a.float() @ b.float()

    run_case(results, f"dot_scaled_kloop {t_in} A {'M' if a_mmajor else 'K'}-contiguous "
             f"{m}x{n}x{k} blocks {bm}x{bn}x{bk} warps={num_warps}",
             KERNELS, "dot_scaled_kloop", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make, [4],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps), against(reference, (2e-2, 2e-2)))


def carried_offsets_case(results, t_in, m, n, k, bm, bn, bk, num_warps):
    """dot_carried_offsets_kloop: A's columns scaled by S[k], offsets reassigned per iteration."""
    def make():
        a = rand(t_in, (m, k), 51)
        s = torch.rand(k, device=DEV, generator=gen(52)) + 0.5
        b = rand(t_in, (k, n), 53)
        return [a, b, s, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k]

    def reference():
        a, b, s = make()[:3]
        return (a.float() * s[None, :]).to(a.dtype).float() @ b.float()

    run_case(results, f"dot_carried_offsets_kloop {t_in} {m}x{n}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps}",
             KERNELS, "dot_carried_offsets_kloop", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make,
             [3], dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps), against(reference, (2e-2, 2e-2)))


def computed_a_case(results, t_in, m, n, k, bm, bn, bk, num_warps):
    """dot_computed_a_kloop: A from an fp32 tile scaled by 1-D factors, cast to t_in."""
    def make():
        cb = torch.randn((m, k), device=DEV, generator=gen(41))
        d = torch.randn(k, device=DEV, generator=gen(42)) * 0.3
        x = rand(t_in, (k, n), 43)
        return [cb, d, x, torch.empty((m, n), device=DEV, dtype=torch.float32), m, n, k]

    def reference():
        cb, d, x = make()[:3]
        a = (cb * torch.exp(torch.minimum(d, torch.zeros_like(d)))[None, :]).to(x.dtype)
        return a.float() @ x.float()

    run_case(results, f"dot_computed_a_kloop {t_in} {m}x{n}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps}",
             KERNELS, "dot_computed_a_kloop", (triton_cdiv(m, bm), triton_cdiv(n, bn)), make,
             [3], dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps),
             against(reference, (2e-2, 2e-2)))


def mmajor_block_case(results, t_in, bm, bn, bk, num_warps):
    """dot_block_mmajor: A passed as K x M (its transpose is the M x K operand)."""
    def make():
        return [rand(t_in, (bk, bm), 61), rand(t_in, (bk, bn), 62),
                torch.empty((bm, bn), device=DEV, dtype=torch.float32)]

    def reference():
        a_t, b = make()[:2]
        return a_t.float().t() @ b.float()

    run_case(results, f"dot_block_mmajor {t_in} {bm}x{bn}x{bk} warps={num_warps}", KERNELS,
             "dot_block_mmajor", (1,), make, [2], dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps),
             against(reference, tolerance(t_in, "fp32", "tf32")))


def causal_a_case(results, t_in, bm, bn, k, bk, num_warps, programs=2):
    """dot_computed_a_causal over `programs` row blocks of `bm`."""
    m = programs * bm
    rows = max(m, k, bn)

    def make():
        cb = torch.randn((m, k), device=DEV, generator=gen(51))
        d = torch.randn(max(m, k), device=DEV, generator=gen(52)) * 0.3
        x = rand(t_in, (rows, bn), 53)
        return [cb, d, x, torch.empty((m, bn), device=DEV, dtype=torch.float32), k]

    def reference():
        cb, d, x = make()[:3]
        xf = x.float()
        acc = (xf[:m] @ xf[:bn]) * d[:m, None]
        a = cb * torch.exp(torch.minimum(d[:m, None] - d[None, :k], torch.zeros(())))
        causal = torch.arange(m, device=DEV)[:, None] >= torch.arange(k, device=DEV)[None, :]
        a = torch.where(causal, a, torch.zeros(())).to(x.dtype)
        return acc + a.float() @ xf[:k]

    run_case(results, f"dot_computed_a_causal {t_in} {m}x{bn}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps}",
             KERNELS, "dot_computed_a_causal", (programs,), make, [3],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps), against(reference, (2e-2, 5e-2)))


def state_recurrence_case(results, t_in, t, bv, num_warps, stages, k=64, nv=128, bt=64):
    """dot_state_recurrence (fla's chunked delta-rule state): the states stored before
    each chunk and the corrected values, against an fp32 torch recurrence that rounds
    where the kernel does (h and v_new to the input type before their products)."""
    nt = triton_cdiv(t, bt)

    def make():
        kt = rand(t_in, (t, k), 91) * 0.25
        v = rand(t_in, (t, nv), 92)
        # w small against k (as the delta rule's w = beta * T k is): h = e^g h + k^T (v - w h)
        # then contracts; at w * 0.25 |h| grew 3.5x a chunk, to 1e8 at T = 1000, and the
        # inputs' rounding, amplified, failed the check (session 53's call 3).
        w = rand(t_in, (t, k), 93) * 0.02
        # a log-decay accumulated within each chunk, as fla's chunk_local_cumsum gives it
        g = -0.01 * (torch.arange(t, device=DEV) % bt + 1).float()
        return [kt, v, w, g, torch.full((nt, k, nv), float("nan"), device=DEV, dtype=v.dtype),
                torch.full((t, nv), float("nan"), device=DEV, dtype=v.dtype), t]

    def reference():
        kt, v, w, g = make()[:4]
        h = torch.zeros((k, nv), device=DEV)
        hs, vn = [], torch.empty((t, nv), device=DEV)
        for i in range(nt):
            rows = slice(i * bt, min((i + 1) * bt, t))
            hs.append(h.clone())
            hq = h.to(v.dtype).float()
            v_new = v[rows].float() - w[rows].float() @ hq
            vn[rows] = v_new
            g_last = g[rows][-1]
            v_dec = (v_new * torch.exp(g_last - g[rows])[:, None]).to(v.dtype).float()
            h = h * torch.exp(g_last) + kt[rows].float().t() @ v_dec
        return torch.stack(hs), vn

    def check(ks, ts):
        ref_h, ref_v = reference()
        details = []
        for who, outs in (("kiln", ks), ("triton", ts)):
            for name, got, ref in (("h", outs[0], ref_h), ("v_new", outs[1], ref_v)):
                g64, r64 = got.double(), ref.double()
                if torch.isnan(g64).any():
                    return False, f"{who}: NaN in {name} (unwritten elements?)"
                err = (g64 - r64).abs().max().item()
                if not torch.allclose(g64, r64, rtol=2e-2, atol=5e-2):
                    return False, f"{who}: {name} max abs err {err:.3g} vs torch"
                details.append(f"{who} {name} {err:.2g}")
        return True, ", ".join(details)

    run_case(results, f"dot_state_recurrence {t_in} T={t} BV={bv} warps={num_warps} "
             f"stages={stages}", KERNELS, "dot_state_recurrence", (nv // bv,), make, [4, 5],
             dict(K=k, NV=nv, BT=bt, BV=bv, USE_GK=False, num_warps=num_warps,
                  num_stages=stages), check)


def block_solve_case(results, t_in, t_out, precision, num_warps, blocks=64, kd=64, bc=16):
    """dot_block_solve (fla's kkt solve): (I + beta K K^T, strictly lower)^-1 per 32-row
    block against torch's inverse in fp64 of the product of the same rounded inputs. At
    1 warp every layout conversion stays in the warp (warp shuffles); at 2 and 4 some cross
    warps (shared memory). The upper block is never written: its NaN poison must stay."""
    n = 2 * bc

    def make():
        k = rand(t_in, (blocks * n, kd), 121) * (0.5 / math.sqrt(kd))
        beta = torch.rand((blocks * n,), device=DEV, generator=gen(122)).to(TORCH[t_in])
        return [k, beta, torch.full((blocks * n, n), float("nan"), device=DEV,
                                    dtype=TORCH[t_out])]

    def reference():
        k, beta = (x.double() for x in make()[:2])
        ref = torch.empty((blocks * n, n), dtype=torch.float64, device=DEV)
        for b in range(blocks):
            rows = slice(b * n, (b + 1) * n)
            a = torch.tril(beta[rows, None] * (k[rows] @ k[rows].t()), diagonal=-1)
            ref[rows] = torch.linalg.inv(torch.eye(n, dtype=torch.float64, device=DEV) + a)
        return ref

    def check(ks, ts):
        ref = reference()
        lower = torch.ones((n, n), dtype=torch.bool, device=DEV)
        lower[:bc, bc:] = False
        lower = lower.repeat(blocks, 1)
        rtol, atol = (2e-2, 2e-2) if "bf16" in (t_in, t_out) or precision == "tf32" \
            else (1e-3, 1e-4)
        details = []
        for who, outs in (("kiln", ks), ("triton", ts)):
            got = outs[0].double()
            if not torch.isnan(got[~lower]).all():
                return False, f"{who}: wrote the upper block"
            if torch.isnan(got[lower]).any():
                return False, f"{who}: NaN in the output (unwritten elements?)"
            err = (got[lower] - ref[lower]).abs().max().item()
            if not torch.allclose(got[lower], ref[lower], rtol=rtol, atol=atol):
                return False, f"{who}: max abs err {err:.3g} vs torch (rtol {rtol}, atol {atol})"
            details.append(f"{who} {err:.2g}")
        return True, ", ".join(details)

    run_case(results, f"dot_block_solve {t_in}->{t_out} {precision} warps={num_warps}",
             KERNELS, "dot_block_solve", (blocks,), make, [2],
             dict(KD=kd, BC=bc, PREC=precision, num_warps=num_warps), check)


def gram_blocks_case(results, t_in, num_warps, stages, bk, blocks=64, kd=128, bc=16):
    """dot_gram_blocks (fla's kkt K loop, session 55's shared operand slots): each key
    block read by several products as A and transposed as B, one under a branch that the
    last program skips (its a10 and a11 stay zero), and a scaled tile made before the loop
    read by a product in it; against torch in fp64 from the same rounded inputs."""
    n = 2 * bc
    t = blocks * n - bc  # the last program's second block is past T

    def make():
        k = rand(t_in, (blocks * n, kd), 131) * 0.25
        q = rand(t_in, (blocks * n, bk), 132) * 0.25
        return [k, q, torch.full((blocks * 4 * bc, bc), float("nan"), device=DEV,
                                 dtype=torch.float32), t]

    def reference():
        k, q = (x.double() for x in make()[:2])
        ref = torch.zeros((blocks, 4, bc, bc), dtype=torch.float64, device=DEV)
        for b in range(blocks):
            k0, k1 = k[b * n:b * n + bc], k[b * n + bc:(b + 1) * n]
            ref[b, 0] = k0 @ k0.t()
            if b * n + bc < t:
                ref[b, 1] = k1 @ k0.t()
                ref[b, 2] = k1 @ k1.t()
            # the scaled Q is rounded to the input type before its product, as the kernel does
            q2 = (2 * q[b * n:b * n + bc, :]).to(TORCH[t_in]).double()
            ref[b, 3] = sum(q2 @ k0[:, i:i + bk].t() for i in range(0, kd, bk))
        return ref.reshape(blocks * 4 * bc, bc)

    run_case(results, f"dot_gram_blocks {t_in} KD={kd} BK={bk} warps={num_warps} "
             f"stages={stages}", KERNELS, "dot_gram_blocks", (blocks,), make, [2],
             dict(KD=kd, BC=bc, BK=bk, num_warps=num_warps, num_stages=stages),
             against(reference, (1e-2, 1e-2)))


def paged_case(results, t_in, k, num_warps, bm=64, bn=64, bk=32, stages=3, pages=256):
    """dot_paged_kloop: B's rows read through a page table loaded in the K loop."""
    m = 2 * bm

    def make():
        a = rand(t_in, (m, k), 81)
        b = rand(t_in, (pages, bn), 82)
        table = torch.randperm(pages, device=DEV, generator=gen(83))[:k].to(torch.int32)
        return [a, b, torch.empty((m, bn), device=DEV, dtype=torch.float32), table, k,
                a.stride(0), b.stride(0)]

    def reference():
        a, b, _, table = make()[:4]
        return a.float() @ b.float()[table.long()]

    run_case(results, f"dot_paged_kloop {t_in} {m}x{bn}x{k} blocks {bm}x{bn}x{bk} "
             f"warps={num_warps} stages={stages}",
             KERNELS, "dot_paged_kloop", (2,), make, [2],
             dict(BM=bm, BN=bn, BK=bk, num_warps=num_warps, num_stages=stages),
             against(reference, (2e-2, 2e-2)))


def gathered_rows_case(results, t_in, k, scaled, num_warps, bm=64, bn=64, bk=32, top_k=2,
                       tokens=37, n=96, experts=3):
    """dot_gathered_rows (vLLM's fused MoE): slots sorted by expert, padded per
    expert to whole blocks of bm with an invalid id; every valid slot written once."""
    num_valid = tokens * top_k
    owner = [(t * 7) % experts for t in range(num_valid)]
    ids, block_experts = [], []
    for e in range(experts):
        group = [t for t in range(num_valid) if owner[t] == e]
        group += [num_valid] * (-len(group) % bm)
        ids += group
        block_experts += [e] * (len(group) // bm)
    kb = triton_cdiv(k, bk)

    def make():
        a = rand(t_in, (tokens, k), 71)
        b = rand(t_in, (experts, k, n), 72)
        a_s = torch.rand((tokens, kb), device=DEV, generator=gen(73)) + 0.5
        b_s = torch.rand((experts, kb), device=DEV, generator=gen(74)) + 0.5
        c = torch.empty((num_valid, n), device=DEV, dtype=torch.float32)
        return [a, b, c, a_s, b_s, torch.tensor(ids, device=DEV, dtype=torch.int32),
                torch.tensor(block_experts, device=DEV, dtype=torch.int32), num_valid, n, k, kb,
                a.stride(0), b.stride(0), b.stride(1), c.stride(0)]

    def reference():
        a, b, _, a_s, b_s = make()[:5]
        out = torch.empty((num_valid, n), device=DEV, dtype=torch.float64)
        for t in range(num_valid):
            row, e = a[t // top_k].double(), b[owner[t]].double()
            if not scaled:
                out[t] = row @ e
                continue
            acc = torch.zeros(n, device=DEV, dtype=torch.float64)
            for j in range(kb):
                blk = slice(j * bk, min(k, (j + 1) * bk))
                acc += (row[blk] @ e[blk]) * a_s[t // top_k, j].double() * b_s[owner[t], j].double()
            out[t] = acc
        return out.float()

    run_case(results, f"dot_gathered_rows {t_in} {num_valid} slots x {n} x {k} "
             f"{'block-scaled ' if scaled else ''}blocks {bm}x{bn}x{bk} warps={num_warps}",
             KERNELS, "dot_gathered_rows", (len(block_experts), triton_cdiv(n, bn)), make, [2],
             dict(BM=bm, BN=bn, BK=bk, TOP_K=top_k, SCALED=scaled, num_warps=num_warps),
             against(reference, (2e-2, 2e-2)))


def triton_cdiv(a, b):
    return (a + b - 1) // b


def tutorial_case(results, m, n, k, cfg, activation, dtype="fp16", b_kmajor=False):
    """b_kmajor: B passed as the transpose of an N x K tensor (K contiguous), as
    tutorial 03 passes its fp8 B."""
    bm, bn, bk, group, warps, stages = cfg

    def make():
        a = rand(dtype, (m, k), 21)
        b = rand(dtype, (n, k), 22).t() if b_kmajor else rand(dtype, (k, n), 22)
        c = torch.empty((m, n), device=DEV, dtype=torch.float16)
        return [a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1)]

    def reference():
        a, b = make()[:2]
        c = a.float() @ b.float()
        if activation == "leaky_relu":
            c = torch.where(c >= 0, c, 0.01 * c)
        return c.to(torch.float16)

    grid = (triton_cdiv(m, bm) * triton_cdiv(n, bn),)
    run_case(results, f"tutorial matmul {dtype} {m}x{n}x{k} {cfg} act={activation!r}"
             f"{' B K-major' if b_kmajor else ''}", MATMUL,
             "matmul_kernel", grid, make, [2],
             dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=group,
                  ACTIVATION=activation, num_warps=warps, num_stages=stages),
             against(reference, FP8_WGMMA_TOLERANCE if dtype.startswith("fp8") and b_kmajor
                     else (1e-2, 1e-2)))


# fp8 on sm_90 wgmma accumulates with reduced precision inside the instruction,
# under Triton as under Kiln (512^3 e4m3: max error 0.125 against fp32 torch on
# outputs of magnitude ~5): rtol 2e-2, atol 0.25 against torch and between the two.
FP8_WGMMA_TOLERANCE = (2e-2, 0.25)


def bmm_case(results, batch, m, n, k, t_in, t_out, bias, transposed_b=False):
    bm, bn, bk = 32, 32, 32  # K >= 32 also suits int8

    def make():
        a = rand(t_in, (batch, m, k), 31)
        b = rand(t_in, (batch, n, k), 32).transpose(1, 2) if transposed_b else \
            rand(t_in, (batch, k, n), 32)
        c = torch.empty((batch, m, n), device=DEV, dtype=TORCH[t_out])
        bias_t = rand(t_in if t_in != "i8" else "i8", (batch, n), 33)
        return [a, b, c, bias_t, m, n, k, *a.stride(), *b.stride(), *c.stride()]

    def reference():
        a, b, _, bias_t = make()[:4]
        if t_in == "i8":
            c = (a.double() @ b.double()).to(torch.int64)
            if bias:
                c = c + bias_t.to(torch.int64)[:, None, :]
        else:
            c = a.float() @ b.float()
            if bias:
                c = c + bias_t.float()[:, None, :]
        return c.to(TORCH[t_out])

    grid = (triton_cdiv(m, bm), triton_cdiv(n, bn), batch)
    run_case(results, f"batched matmul {t_in}->{t_out} {batch}x{m}x{n}x{k} bias={bias} "
             f"b_transposed={transposed_b}", BMM, "bmm_kernel", grid, make, [2],
             dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, HAS_BIAS=int(bias)),
             against(reference, tolerance(t_in, t_out, "tf32")))


def attention_case(results, seq, d, block_n, causal):
    def make():
        q, k, v = (rand("fp16", (seq, d), 40 + i) for i in range(3))
        return [q, k, v, torch.empty((seq, d), device=DEV, dtype=torch.float32)]

    def reference():
        q, k, v = make()[:3]
        return torch.nn.functional.scaled_dot_product_attention(
            q.float()[None, None], k.float()[None, None], v.float()[None, None],
            is_causal=bool(causal))[0, 0]

    run_case(results, f"attention_block fp16 seq={seq} d={d} block_n={block_n} causal={causal}",
             KERNELS, "attention_block", (1,), make, [3],
             dict(SEQ=seq, D=d, BLOCK_N=block_n, CAUSAL=causal),
             against(reference, (1e-2, 1e-2)))


def attention_fwd_case(results, z, h, n_ctx, d, bm, bn, causal, num_warps):
    scale = 1.0 / math.sqrt(d)

    def make():
        q, k, v = (rand("fp16", (z, h, n_ctx, d), 50 + i) for i in range(3))
        o = torch.empty_like(q)
        return [q, k, v, scale, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), h, n_ctx]

    def reference():
        q, k, v = make()[:3]
        return torch.nn.functional.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), is_causal=bool(causal), scale=scale).half()

    run_case(results, f"attention forward fp16 Z={z} H={h} N_CTX={n_ctx} D={d} "
             f"blocks {bm}x{bn} causal={causal} warps={num_warps}", ATTN, "attn_fwd",
             (triton_cdiv(n_ctx, bm), z * h), make, [4],
             dict(HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=num_warps),
             against(reference, (1e-2, 1e-2)))


def cases(results):
    # Shapes and warp splits: single instruction tiles up to repeated tiles per warp.
    for bm, bn, bk, warps in [(16, 16, 16, 1), (16, 16, 16, 4), (32, 32, 16, 4), (64, 64, 32, 4),
                              (128, 64, 32, 4), (64, 128, 64, 8), (128, 128, 32, 4),
                              (16, 64, 32, 2)]:
        block_case(results, "fp16", "fp32", bm, bn, bk, num_warps=warps)
    # B read two n-tiles per ldmatrix.x4: 8 tiles on one warp (adjacent), 2 x 8 on
    # 2 warps splitting N (16 columns apart).
    for bm, bn, bk, warps in [(16, 64, 32, 1), (32, 128, 32, 2)]:
        block_case(results, "bf16", "fp32", bm, bn, bk, num_warps=warps)
    block_case(results, "fp16", "fp32", 16, 64, 32, trans_b=1, num_warps=1)
    block_case(results, "fp16", "fp16", 64, 64, 32)
    block_case(results, "fp16", "fp16", 32, 32, 32, has_acc=1)
    block_case(results, "bf16", "fp32", 64, 32, 32)
    block_case(results, "bf16", "fp32", 32, 64, 64, has_acc=1, epilogue=1)
    for precision in ("tf32", "tf32x3", "ieee"):
        block_case(results, "fp32", "fp32", 32, 32, 16, precision=precision)
        block_case(results, "fp32", "fp32", 64, 32, 32, precision=precision, has_acc=1)
    block_case(results, "fp64", "fp64", 32, 16, 16, precision="ieee")
    block_case(results, "i8", "i32", 32, 32, 32)
    block_case(results, "i8", "i32", 64, 64, 64, has_acc=1, epilogue=3)
    block_case(results, "fp8e4nv", "fp32", 32, 32, 32)
    block_case(results, "fp8e5", "fp32", 64, 32, 64, has_acc=1)
    # Epilogues on the mma layout: elementwise, a row reduction, a broadcast bias; B transposed.
    for epilogue in (1, 2, 3):
        block_case(results, "fp16", "fp32", 64, 64, 32, has_acc=1, epilogue=epilogue)
    block_case(results, "fp16", "fp32", 64, 32, 64, trans_b=1)
    # K loops with masked edges.
    for m, n, k in [(64, 64, 64), (100, 70, 90), (256, 192, 512)]:
        kloop_case(results, m, n, k, 64, 64, 32)
    kloop_case(results, 128, 128, 256, 128, 128, 32, num_warps=8)
    # tf32 K loops whose operands sm_90 copies into K-major slots for wgmma.
    strided_case(results, "fp32", 256, 128, 256, 64, 64, 32, "nt")
    strided_case(results, "fp32", 200, 70, 100, 64, 64, 32, "nt")
    strided_case(results, "fp32", 256, 256, 128, 128, 64, 32, "nt", num_warps=8)
    strided_case(results, "fp32", 128, 96, 160, 64, 32, 32, "gather")
    strided_case(results, "fp32", 256, 64, 64, 64, 64, 16, "gather")
    strided_case(results, "fp16", 128, 96, 160, 64, 32, 32, "gather")
    # int8 K loops: K-contiguous B is s8 wgmma on sm_90 (64-, 32-byte and 128-byte
    # K rows; 4 and 8 warps; masked edges), N-contiguous B stays on mma.sync.
    int8_case(results, 256, 128, 256, 128, 128, 64, "nt")
    int8_case(results, 200, 70, 100, 64, 64, 32, "nt")
    int8_case(results, 256, 256, 512, 128, 128, 128, "nt", num_warps=8)
    int8_case(results, 128, 64, 256, 64, 64, 64, "nn")
    # A loaded M-contiguous (x^T in mamba's chunk state): copied into transposed slots,
    # read by wgmma as M-major (4 and 8 warps) and by ldmatrix.trans (2 warps: mma.sync);
    # with a K-major B as well ("tt").
    strided_case(results, "fp16", 256, 128, 256, 128, 128, 32, "tn")
    strided_case(results, "bf16", 200, 136, 160, 64, 64, 32, "tn")
    strided_case(results, "fp16", 256, 256, 128, 128, 128, 64, "tn", num_warps=8)
    strided_case(results, "bf16", 100, 70, 96, 64, 32, 32, "tn", num_warps=2)
    strided_case(results, "fp16", 128, 96, 160, 64, 64, 32, "tt")
    strided_case(results, "fp16", 96, 64, 80, 32, 64, 16, "tt", num_warps=2)
    # Loops whose dot operand is computed from other loads (mamba's chunk state and
    # chunk scan): the other loads are started ahead too (slots, or registers for the
    # small ones); A M-contiguous or not.
    for t_in, a_mmajor, warps in [("bf16", True, 4), ("fp16", False, 4), ("bf16", True, 2),
                                  ("fp16", True, 8)]:
        scaled_case(results, t_in, 192, 128, 250, 64, 128, 32, a_mmajor, warps)
    for t_in, warps in [("bf16", 4), ("fp16", 2)]:
        computed_a_case(results, t_in, 160, 64, 256, 64, 64, 32, warps)
    # A name reassigned in the loop, carried though dead (the fused-attention
    # backward's offs_m): its vector load is copied into slots too.
    for t_in, m, n, k, bm, warps in [("fp16", 256, 128, 512, 128, 4), ("bf16", 200, 96, 250, 64, 4)]:
        carried_offsets_case(results, t_in, m, n, k, bm, 64, 32, warps)
    # A computed B on 2 x 2 warps (mma.sync: 32 rows are too few for warp groups),
    # A K- or M-contiguous.
    scaled_case(results, "fp16", 96, 128, 250, 32, 64, 32, False, 4)
    scaled_case(results, "bf16", 96, 128, 250, 32, 64, 32, True, 4)
    # An M-contiguous A outside any loop, staged by the dot as K rows of M (wgmma
    # M-major with 4 and 8 warps, ldmatrix.trans with 2).
    for t_in, bm, bn, bk, warps in [("fp16", 128, 64, 32, 4), ("bf16", 64, 64, 64, 4),
                                    ("fp16", 64, 32, 32, 2), ("fp16", 128, 128, 64, 8)]:
        mmajor_block_case(results, t_in, bm, bn, bk, warps)
    # A computed in the accumulator layout of the dot before the loop: from registers
    # (wgmma, in flight across iterations, at 128 rows and 4 warps; mma.sync otherwise).
    for t_in, bm, warps in [("fp16", 128, 4), ("bf16", 64, 4), ("fp16", 64, 2), ("bf16", 128, 8)]:
        causal_a_case(results, t_in, bm, 64, 256, 32, warps)
    # Warps along N (mamba's chunk scan at 32 x 64 on 2 warps, and 16 rows): the
    # product before the loop does not keep A in registers; A is staged by the dot.
    for t_in, bm, warps in [("bf16", 32, 2), ("fp16", 32, 4), ("fp16", 16, 2)]:
        causal_a_case(results, t_in, bm, 64, 256, 32, warps)
    # vLLM's fused MoE: A rows gathered through token ids, B chosen per block's
    # expert, with and without per-K-block scales (K = 256: pipelined; K = 200:
    # rows too narrow to copy ahead).
    for t_in, k, scaled, warps in [("bf16", 256, False, 4), ("fp16", 256, True, 4),
                                   ("bf16", 200, True, 4), ("fp16", 256, True, 2)]:
        gathered_rows_case(results, t_in, k, scaled, warps)
    # fla's recurrent state (session 53): stored, decayed and accumulated in its dot's
    # layout, v and g copied ahead past the loop's stores, v_new staged for wgmma.
    for t_in, t, bv, warps, stages in [("bf16", 1000, 32, 4, 2), ("fp16", 256, 64, 4, 3),
                                       ("bf16", 200, 32, 2, 2), ("fp16", 63, 64, 8, 2)]:
        state_recurrence_case(results, t_in, t, bv, warps, stages)
    # fla's kkt solve at 1, 2 and 4 warps: accumulators read as tf32 / fp32 operands and
    # column sums read as row vectors, by warp shuffles within a warp (session 54).
    for t_in, t_out, precision, warps in [("bf16", "fp32", "tf32", 1), ("bf16", "bf16", "ieee", 1),
                                          ("fp32", "fp32", "tf32", 1), ("bf16", "fp32", "ieee", 2),
                                          ("fp16", "fp32", "tf32", 4)]:
        block_solve_case(results, t_in, t_out, precision, warps)
    # fla's kkt K loop: key blocks read as A and transposed as B by several products (one
    # under a branch), a scaled tile made before the loop: one slot each (session 55),
    # with the first block copied ahead (stages 2-3) or loaded in the loop (stages 1).
    for t_in, warps, stages, bk in [("bf16", 1, 1, 32), ("bf16", 1, 3, 64), ("fp16", 2, 2, 32),
                                    ("fp16", 4, 1, 64)]:
        gram_blocks_case(results, t_in, warps, stages, bk)
    # Paged attention's pattern: the rows of B through a table loaded in the K
    # loop (K = 200: a partial last block), 2-4 stages, mma.sync and wgmma.
    for t_in, k, warps, stages in [("fp16", 256, 4, 3), ("bf16", 200, 4, 2), ("fp16", 200, 2, 4),
                                   ("fp16", 256, 8, 3)]:
        paged_case(results, t_in, k, warps, stages=stages)
    # fp8 K loops: K-major A and B ("nt") run on sm_90 wgmma k32 from K-major slots
    # (32-, 64- and 128-byte K rows; M, N, K not multiples of the blocks); an
    # N-contiguous B ("nn") stays on mma.sync.
    strided_case(results, "fp8e4nv", 256, 256, 256, 128, 128, 128, "nt")
    strided_case(results, "fp8e5", 200, 136, 160, 64, 64, 64, "nt")
    strided_case(results, "fp8e4nv", 100, 70, 96, 64, 32, 32, "nt")
    strided_case(results, "fp8e5", 256, 128, 128, 128, 64, 32, "nt", num_warps=8)
    strided_case(results, "fp8e4nv", 128, 96, 160, 64, 32, 32, "nn")
    # The tutorial kernel with some of its configs (BM, BN, BK, GROUP_M, warps, stages).
    for cfg in [(128, 256, 64, 8, 8, 3), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4),
                (128, 64, 32, 8, 4, 4), (64, 32, 32, 8, 4, 5), (32, 64, 32, 8, 2, 5)]:
        tutorial_case(results, 512, 512, 512, cfg, "")
    tutorial_case(results, 333, 517, 129, (64, 64, 32, 8, 4, 4), "leaky_relu")
    tutorial_case(results, 1024, 1024, 1024, (128, 128, 64, 8, 8, 3), "leaky_relu")
    # Tutorial 03's fp8 run (B K-major) at its fp8 configs and 128x256x64, both fp8
    # types, and with M, N, K not multiples of the block (sm_90: wgmma k32).
    for dtype in ("fp8e4nv", "fp8e5"):
        for cfg in [(128, 256, 128, 8, 8, 3), (128, 256, 64, 8, 8, 3), (64, 256, 128, 8, 4, 4)]:
            tutorial_case(results, 512, 512, 512, cfg, "", dtype=dtype, b_kmajor=True)
        tutorial_case(results, 333, 517, 400, (128, 256, 128, 8, 8, 3), "", dtype=dtype,
                      b_kmajor=True)
    tutorial_case(results, 256, 256, 256, (128, 128, 64, 8, 4, 3), "", dtype="fp8e5")
    # Warp groups splitting N (sm_90: 8 or 16 warps on 64 rows are 2 or 4 wgmma groups,
    # each of 64 rows and N / groups columns, as Triton's [4, 2] / [4, 4]): N-major and
    # K-major B, masked edges, tf32 / int8 / fp8 K-major operands, an M-major A, a B
    # computed in the loop, epilogues on the split accumulator, the tutorial kernel.
    kloop_case(results, 256, 256, 512, 64, 128, 64, num_warps=8)
    kloop_case(results, 200, 136, 250, 64, 128, 32, num_warps=8)
    strided_case(results, "fp16", 256, 256, 256, 64, 128, 32, "nt", num_warps=8)
    strided_case(results, "bf16", 200, 300, 160, 64, 256, 32, "nt", num_warps=16)
    strided_case(results, "fp32", 256, 128, 256, 64, 64, 32, "nt", num_warps=8)
    strided_case(results, "fp32", 200, 136, 100, 64, 128, 32, "nt", num_warps=8)
    int8_case(results, 256, 256, 256, 64, 128, 64, "nt", num_warps=8)
    strided_case(results, "fp8e4nv", 256, 256, 256, 64, 128, 64, "nt", num_warps=8)
    strided_case(results, "fp16", 256, 256, 128, 64, 128, 64, "tn", num_warps=8)
    scaled_case(results, "fp16", 192, 256, 250, 64, 128, 32, False, 8)
    scaled_case(results, "bf16", 192, 256, 250, 64, 128, 32, True, 8)
    mmajor_block_case(results, "fp16", 64, 128, 64, 8)
    for epilogue in (1, 2, 3):
        block_case(results, "fp16", "fp32", 64, 128, 32, has_acc=1, epilogue=epilogue,
                   num_warps=8)
    tutorial_case(results, 512, 512, 512, (64, 128, 64, 8, 8, 3), "")
    tutorial_case(results, 333, 517, 400, (64, 256, 64, 8, 8, 4), "leaky_relu")
    tutorial_case(results, 512, 512, 512, (64, 256, 128, 8, 8, 3), "", dtype="fp8e4nv",
                  b_kmajor=True)
    # Two products into one accumulator per K step, in flight together on sm_90.
    chain_case(results, "fp16", 256, 256, 512, 128, 128, 64)
    chain_case(results, "bf16", 200, 136, 250, 64, 128, 32, num_warps=8)
    chain_case(results, "fp16", 256, 128, 256, 64, 64, 32, num_stages=2)
    chain_case(results, "bf16", 96, 64, 160, 32, 64, 32, num_warps=2)
    # Batched / strided.
    bmm_case(results, 3, 64, 64, 64, "fp16", "fp16", False)
    bmm_case(results, 4, 50, 70, 90, "fp16", "fp32", True, transposed_b=True)
    bmm_case(results, 2, 64, 32, 64, "i8", "i32", True)
    bmm_case(results, 2, 48, 48, 80, "fp32", "fp32", False)
    # M or N below 16 (Triton 3.6 pads them; tile-pad-small-dot repeats rows / columns).
    for bm, bn, bk in [(1, 16, 16), (4, 8, 32), (16, 1, 16), (8, 32, 64), (1, 1, 32)]:
        block_case(results, "fp16", "fp32", bm, bn, bk, has_acc=bm % 2)
    block_case(results, "fp32", "fp32", 2, 4, 16, precision="ieee", has_acc=1)
    block_case(results, "i8", "i32", 8, 16, 32, has_acc=1)
    block_case(results, "bf16", "fp32", 4, 64, 32, epilogue=2)
    # 3-D (batched) tl.dot: one 2-D product per batch entry (tile-decompose-batched-dot).
    for bb, bm, bn, bk in [(1, 16, 16, 16), (2, 16, 32, 16), (4, 32, 32, 32), (8, 16, 16, 32)]:
        dot3d_case(results, "fp16", "fp32", bb, bm, bn, bk, has_acc=bb % 2)
    dot3d_case(results, "fp32", "fp32", 2, 32, 16, 16, precision="ieee")
    dot3d_case(results, "fp32", "fp32", 4, 16, 16, 16, precision="tf32", has_acc=1)
    dot3d_case(results, "bf16", "fp32", 2, 64, 64, 32, num_warps=8)
    dot3d_case(results, "i8", "i32", 4, 16, 32, 32, has_acc=1)
    # Attention's inner loop: dot -> row max/sum -> exp2 -> dot.
    for seq, d, bn, causal in [(64, 64, 32, 0), (64, 64, 32, 1), (128, 64, 64, 1), (32, 16, 16, 0)]:
        attention_case(results, seq, d, bn, causal)
    # The fused attention forward (examples/matmul/attention_fwd.py) against SDPA.
    for causal in (0, 1):
        attention_fwd_case(results, 2, 3, 200, 64, 64, 32, causal, 4)
        attention_fwd_case(results, 1, 4, 1024, 64, 128, 64, causal, 8)
        attention_fwd_case(results, 2, 2, 256, 128, 64, 64, causal, 4)
