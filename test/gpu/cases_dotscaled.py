"""tl.dot_scaled (test/gpu/dot_kernels.py `dot_scaled_block`): Kiln against
Triton 3.6 and against a torch reference that decodes the OCP MX formats
(e2m1 codes two per byte, low nibble first; e4m3 / e5m2 bytes; e8m0 scales
2^(s - 127)). On sm_90 both compilers upcast to bf16 and run an ordinary
product, so the results agree up to summation order. Scales stay in
[120, 134]: away from 0 (Triton's bf16 upcast flushes 2^-127 to zero) and
from 255 (NaN), which a separate case checks."""
import os

import torch

from kcompare import DEV, HERE, gen, run_case

KERNELS = os.path.join(HERE, "dot_kernels.py")
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def decode(fmt, t, packed_dim):
    """The float32 values of operand bytes `t` in format `fmt`."""
    if fmt == "e4m3":
        return t.view(torch.float8_e4m3fn).float()
    if fmt == "e5m2":
        return t.view(torch.float8_e5m2).float()
    if fmt == "bf16":
        return t.float()
    table = torch.tensor(E2M1 + [-v for v in E2M1], device=t.device)
    lo, hi = table[(t & 15).long()], table[(t >> 4).long()]
    both = torch.stack([lo, hi], dim=packed_dim + 1)  # element 2i, then 2i + 1
    shape = list(t.shape)
    shape[packed_dim] *= 2
    return both.reshape(shape) if packed_dim == len(shape) - 1 else \
        both.reshape(shape[0] // 2, 2, *shape[1:]).reshape(shape)


def operand(fmt, rows, cols, seed, packed_dim):
    g = gen(seed)
    if fmt == "bf16":
        return torch.randn(rows, cols, device=DEV, generator=g).to(torch.bfloat16)
    if fmt == "e2m1":
        shape = [rows, cols]
        shape[packed_dim] //= 2
        return torch.randint(0, 256, shape, device=DEV, generator=g, dtype=torch.uint8)
    x = torch.randn(rows, cols, device=DEV, generator=g) * 4
    fp8 = torch.float8_e4m3fn if fmt == "e4m3" else torch.float8_e5m2
    return x.to(fp8).view(torch.uint8)


def case(results, af, bf, m, n, k, has_as=True, has_bs=True, nan_scale=False):
    seed = m + 3 * n + k + len(af) * 7 + len(bf)

    def make():
        a = operand(af, m, k, seed, 1)
        b = operand(bf, k, n, seed + 1, 0)
        g = gen(seed + 2)
        sa = torch.randint(120, 135, (m, k // 32), device=DEV, generator=g, dtype=torch.uint8)
        sb = torch.randint(120, 135, (n, k // 32), device=DEV, generator=g, dtype=torch.uint8)
        if nan_scale:
            sa[1, 0] = 255
        c = torch.empty((m, n), device=DEV, dtype=torch.float32)
        return [a, sa, b, sb, c]

    def reference():
        a, sa, b, sb, _ = make()
        av, bv = decode(af, a, 1), decode(bf, b, 0)
        if has_as:
            av = av * torch.exp2(sa.float() - 127).repeat_interleave(32, dim=1)
        if has_bs:
            bv = bv * torch.exp2(sb.float() - 127).repeat_interleave(32, dim=1).t()
        return av.double() @ bv.double()

    def check(ks, ts):
        ref = reference()
        details = []
        for who, got in (("kiln", ks[0]), ("triton", ts[0])):
            g64 = got.double()
            if nan_scale:
                # Row 1 of A has a NaN scale: that row of C is NaN, the rest finite.
                if not torch.isnan(g64[1]).all() or torch.isnan(g64[0]).any():
                    return False, f"{who}: row 1 should be NaN (scale 255) and row 0 finite"
                g64, r = g64[[0] + list(range(2, m))], ref[[0] + list(range(2, m))]
            else:
                r = ref
            scale = r.abs().max().item() or 1.0
            err = (g64 - r).abs().max().item() / scale
            if not err < 1e-2:
                return False, f"{who}: max error {err:.3g} of max |ref| against torch"
            details.append(f"{who} {err:.2g}")
        k64, t64 = ks[0].double(), ts[0].double()
        both = ~(torch.isnan(k64) | torch.isnan(t64))
        diff = (k64[both] - t64[both]).abs().max().item() / (t64[both].abs().max().item() or 1)
        if diff > 1e-3:
            return False, f"kiln vs triton: {diff:.3g} of max |triton|"
        return True, "relative error vs torch: " + ", ".join(details) + f"; vs triton {diff:.2g}"

    run_case(results, f"dot_scaled {af} x {bf} {m}x{n}x{k} scales={int(has_as)}{int(has_bs)}"
             f"{' nan' if nan_scale else ''}", KERNELS, "dot_scaled_block", (1,), make, [4],
             dict(M=m, N=n, K=k, AF=af, BF=bf, HAS_AS=has_as, HAS_BS=has_bs, FAST=False,
                  num_warps=4), check)


def cases(results):
    case(results, "e4m3", "e4m3", 64, 64, 64)
    case(results, "e5m2", "e5m2", 64, 32, 128)
    case(results, "e2m1", "e2m1", 64, 64, 128)
    case(results, "e4m3", "e2m1", 32, 64, 64)
    case(results, "bf16", "e2m1", 64, 64, 64, has_as=False)
    # A bf16 operand with a scale (gemlite): scaled like the others.
    case(results, "bf16", "e4m3", 64, 64, 64)
    case(results, "e2m1", "e4m3", 128, 64, 64, nan_scale=True)
