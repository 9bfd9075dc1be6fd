"""Kernels defined inside functions (closures) and a replaced source, run
under Triton and under Kiln's drop-in; prints one digest line per case.

    python3 test/gpu/nested_kernels.py > triton.txt
    python3 -m kiln.run test/gpu/nested_kernels.py > kiln.txt
    diff triton.txt kiln.txt        # equal outputs, case by case
"""
import hashlib

import torch
import triton
import triton.language as tl

SCALE = 100.0  # shadowed by make_scaled's SCALE


def make_scaled(scale, block, out_ty):
    # Triton reads captured values only when they are constexprs (or dtypes,
    # jit functions): the same rule as for globals.
    SCALE = tl.constexpr(scale)  # noqa: F841  (read by combine)
    block = tl.constexpr(block)
    out_ty = tl.constexpr(out_ty)

    @triton.jit
    def combine(a, b):
        return a * SCALE + b

    @triton.jit
    def scaled(x_ptr, out_ptr, n):
        offs = tl.program_id(0) * block + tl.arange(0, block)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(out_ptr + offs, combine(x, 1.0).to(out_ty), mask=m)

    return scaled


def make_row_reduce(op):
    op = tl.constexpr(op)
    @triton.jit
    def row_reduce(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols,
                    other=0.0)
        if op == "sum":
            r = tl.sum(x, axis=0)
        else:
            r = tl.max(tl.where(offs < n_cols, x, -float("inf")), axis=0)
        tl.store(out_ptr + row, r)

    return row_reduce


@triton.jit
def template(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, GENERATE_HERE)  # noqa: F821


def digest(t):
    return hashlib.sha256(t.cpu().contiguous().view(torch.uint8)
                          .numpy().tobytes()).hexdigest()[:16]


def main():
    torch.manual_seed(0)
    x = torch.randn(10000, device="cuda")
    for scale, block, ty, tname in ((3.5, 128, tl.float16, "fp16"),
                                   (5.25, 256, tl.float32, "fp32")):
        k = make_scaled(scale, block, ty)
        out = torch.full((10000,), float("nan"), device="cuda",
                         dtype=torch.float16 if tname == "fp16"
                         else torch.float32)
        k[(triton.cdiv(10000, block),)](x, out, 10000)
        print("scaled", scale, block, tname, digest(out))
    m = torch.randn(64, 1000, device="cuda")
    for op in ("sum", "max"):
        out = torch.full((64,), float("nan"), device="cuda")
        make_row_reduce(op)[(64,)](m, out, 1000, BLOCK=1024)
        ref = m.sum(1) if op == "sum" else m.max(1).values
        print("row_reduce", op, "max_err %.1e" % (out - ref).abs().max())
    for expr in ("x * 7.0", "tl.exp(x) + 1.0", "tl.where(x > 0, x, 0.0)"):
        k = triton.JITFunction(template.fn)
        k._unsafe_update_src(k.src.replace("GENERATE_HERE", expr))
        out = torch.full((128,), float("nan"), device="cuda")
        k[(1,)](x, out, BLOCK=128)
        print("template", expr, digest(out))


if __name__ == "__main__":
    main()
