"""Kernels the drop-in tests launch (test_dropin.py): plain Triton code."""
import triton
import triton.language as tl

from .configs import block_configs, even_n

_SCALE: tl.constexpr = tl.constexpr(2)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y * _SCALE, mask=mask)


@triton.jit
def bias_kernel(out_ptr, bias_ptr, alpha, n, BLOCK: tl.constexpr,
                ACT: tl.constexpr = "none"):
    offs = tl.arange(0, BLOCK)
    v = tl.load(out_ptr + offs, mask=offs < n)
    if bias_ptr is not None:
        v = v + tl.load(bias_ptr + offs, mask=offs < n)
    if ACT == "relu":
        v = tl.maximum(v, 0.0)
    tl.store(out_ptr + offs, v * alpha, mask=offs < n)


@triton.autotune(configs=block_configs(), key=["n"], reset_to_zero=["out_ptr"])
@triton.jit
def tuned_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n),
             mask=offs < n)


@triton.heuristics({"EVEN": even_n, "BLOCK": lambda a: 128})
@triton.jit
def even_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))
    else:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n),
                 mask=offs < n)


@triton.jit
def rows_copy(out_ptr, in_ptr, n_rows, n_cols, BLOCK: tl.constexpr,
              num_stages: tl.constexpr):
    # A parameter named like a launch option (the fused-softmax tutorial's).
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0),
                        num_stages=num_stages):
        offs = tl.arange(0, BLOCK)
        v = tl.load(in_ptr + row * n_cols + offs, mask=offs < n_cols)
        tl.store(out_ptr + row * n_cols + offs, v, mask=offs < n_cols)


@triton.jit
def axpy_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * alpha + y, mask=m)


# `tl.const` pointers (Triton's test_const): read-only data; storing through
# `c_out` is a compile error naming the store.
@triton.jit
def const_copy(in_ptr: tl.const, out, c_out: tl.const, to_const: tl.constexpr,
               BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    final_out = c_out if to_const else out
    tl.store(final_out + offs, tl.load(in_ptr + offs))


# Parameters named like launch options are arguments (the fused-softmax
# tutorial has a `num_stages` one).
@triton.jit
def option_named(out_ptr, launch_pdl, num_ctas, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, launch_pdl * 10 + num_ctas + offs * 0)
