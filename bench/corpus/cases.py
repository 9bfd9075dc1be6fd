"""The kernel corpus: every case's kernel, shapes, launch and PyTorch reference.

Pure Python, importable without torch or Triton: bench/corpus_check.py (CI)
derives each case's signature from it and compiles it with ln-compile,
bench/corpus_run.py (GPU) runs it under Triton and Kiln. The vocabulary (Case,
Ptr, Int, Float, Const, shape, Ctx) is in bench/corpus_model.py. Torch appears
only inside `make` / `ref` functions, through the Ctx they receive.

Shapes: "small" first (--quick runs only it), then "large" (bandwidth-bound
sizes) and "odd" (lengths and strides that are not multiples of 16).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from corpus_model import (Case, Const, Float, Int, Ptr, cdiv, next_pow2,  # noqa: E402
                          row_warps, shape)

F = ("fp16", "bf16", "fp32")
F16 = ("fp16", "fp32")
VEC_SHAPES = [shape("small", n=4096), shape("large", n=1 << 25), shape("odd", n=1_000_003)]
POISON = "poison"


def vec_grid(block):
    return lambda s, sms: (cdiv(s.n, block),)


def _unary_vec(file, kernel, covers, extra, body, ref, nbytes, tol=None):
    return Case(file, kernel, covers,
                [Ptr("x"), Ptr("y"), Int("n", lambda s: s.n)] + extra + [Const("BLOCK", lambda s: 1024)],
                VEC_SHAPES, F, vec_grid(1024), 4,
                make=lambda c, s: {"x": body(c, s), "y": c.empty(s.n)},
                outputs={"y": POISON}, ref=ref, bytes=nbytes, tol=tol)


CASES = []
add = CASES.append

# ---------------------------------------------------------------- elementwise
add(_unary_vec(
    "elementwise.py", "silu_kernel", "unary: x * sigmoid(x) through tl.exp in fp32", [],
    lambda c, s: c.randn(s.n, scale=3.0),
    lambda c, s, t: {"y": c.torch.nn.functional.silu(t["x"].float())},
    lambda s, e: 2 * s.n * e))

add(Case("elementwise.py", "axpby_kernel", "binary with two fp32 scalar arguments",
         [Ptr("x"), Ptr("y"), Ptr("z"), Int("n", lambda s: s.n),
          Float("alpha", lambda s: 0.75), Float("beta", lambda s: -1.25),
          Const("BLOCK", lambda s: 1024)],
         VEC_SHAPES, F, vec_grid(1024), 4,
         make=lambda c, s: {"x": c.randn(s.n), "y": c.randn(s.n), "z": c.empty(s.n)},
         outputs={"z": POISON},
         ref=lambda c, s, t: {"z": 0.75 * t["x"].float() - 1.25 * t["y"].float()},
         bytes=lambda s, e: 3 * s.n * e))

MAT_SHAPES = [shape("small", M=64, N=256, sx=256, sy=256),
              shape("large", M=8192, N=4096, sx=4096, sy=4096),
              shape("odd", M=1000, N=1000, sx=1003, sy=1000)]
add(Case("elementwise.py", "bias_relu_kernel",
         "2-D tiles on a 2-D grid, a row vector broadcast over rows, padded strides",
         [Ptr("x"), Ptr("b"), Ptr("y"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride_x", lambda s: s.sx), Int("stride_y", lambda s: s.sy),
          Const("BLOCK_M", lambda s: 32), Const("BLOCK_N", lambda s: 64)],
         MAT_SHAPES, F, lambda s, sms: (cdiv(s.M, 32), cdiv(s.N, 64)), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "b": c.randn(s.N),
                            "y": c.mat(s.M, s.N, s.sy, fill="empty")},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": (t["x"].float() + t["b"].float()[None, :]).relu()},
         bytes=lambda s, e: (2 * s.M * s.N + s.N) * e))

add(Case("elementwise.py", "col_scale_kernel",
         "a column vector broadcast over columns, loop over column tiles",
         [Ptr("x"), Ptr("scale"), Ptr("y"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Const("BLOCK_M", lambda s: 16),
          Const("BLOCK_N", lambda s: 128)],
         [shape("small", M=128, N=512, sx=512), shape("large", M=16384, N=4096, sx=4096),
          shape("odd", M=999, N=777, sx=781)],
         F, lambda s, sms: (cdiv(s.M, 16),), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "scale": c.randn(s.M),
                            "y": c.mat(s.M, s.N, s.sx, fill="empty")},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": t["x"].float() * t["scale"].float()[:, None]},
         bytes=lambda s, e: (2 * s.M * s.N + s.M) * e))

add(Case("elementwise.py", "dequant_int8_kernel", "int8 loads converted to float, per-row scale",
         [Ptr("q", "i8"), Ptr("scale", "fp32"), Ptr("y"), Int("N", lambda s: s.N),
          Int("stride_q", lambda s: s.sq), Int("stride_y", lambda s: s.sy),
          Const("BLOCK", lambda s: 1024)],
         [shape("small", M=64, N=1024, sq=1024, sy=1024),
          shape("large", M=8192, N=8192, sq=8192, sy=8192),
          shape("odd", M=1001, N=3001, sq=3008, sy=3001)],
         F, lambda s, sms: (s.M,), 4,
         make=lambda c, s: {"q": c.mat(s.M, s.N, s.sq, dtype="i8", fill="int"),
                            "scale": c.rand(s.M, dtype="fp32", lo=0.01, hi=0.1),
                            "y": c.mat(s.M, s.N, s.sy, fill="empty")},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": t["q"].float() * t["scale"][:, None]},
         bytes=lambda s, e: s.M * s.N * (1 + e) + 4 * s.M))


def _int_mix_ref(c, s, t):
    a, b, torch = t["a"], t["b"], c.torch
    h = (a ^ (b << 3)) & 0xFFFF
    q = torch.div(a, b, rounding_mode="trunc")
    r = torch.fmod(a, b)
    return {"c": torch.where(a > b, h + q, (h >> 2) - r)}


def _int_mix_make(c, s):
    b = c.randint(1, 1000, s.n)
    sign = c.randint(0, 2, s.n) * 2 - 1
    return {"a": c.randint(-100000, 100000, s.n), "b": b * sign, "c": c.empty(s.n)}


add(Case("elementwise.py", "int_mix_kernel", "int32 shifts, masks, xor, truncating // and %",
         [Ptr("a"), Ptr("b"), Ptr("c"), Int("n", lambda s: s.n), Const("BLOCK", lambda s: 1024)],
         VEC_SHAPES, ("i32",), vec_grid(1024), 4,
         make=_int_mix_make, outputs={"c": POISON}, ref=_int_mix_ref,
         bytes=lambda s, e: 3 * s.n * e))

ADAM = dict(lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, s1=1 / (1 - 0.9 ** 10),
            s2=1 / (1 - 0.999 ** 10))


def _adam_ref(c, s, t):
    g = t["g"].float()
    m = ADAM["beta1"] * t["m1"] + (1 - ADAM["beta1"]) * g
    v = ADAM["beta2"] * t["m2"] + (1 - ADAM["beta2"]) * g * g
    p = t["p"] - ADAM["lr"] * (m * ADAM["s1"]) / ((v * ADAM["s2"]).sqrt() + ADAM["eps"])
    return {"p": p, "m1": m, "m2": v}


add(Case("elementwise.py", "adam_step_kernel", "in-place update of three fp32 state tensors",
         [Ptr("p", "fp32"), Ptr("g"), Ptr("m1", "fp32"), Ptr("m2", "fp32"),
          Int("n", lambda s: s.n)]
         + [Float(k, lambda s, v=v: ADAM[v])
            for k, v in (("lr", "lr"), ("beta1", "beta1"), ("beta2", "beta2"), ("eps", "eps"),
                         ("step_size_1", "s1"), ("step_size_2", "s2"))]
         + [Const("BLOCK", lambda s: 1024)],
         VEC_SHAPES, F, vec_grid(1024), 4,
         make=lambda c, s: {"p": c.randn(s.n, dtype="fp32"), "g": c.randn(s.n),
                            "m1": c.randn(s.n, dtype="fp32", scale=0.1),
                            "m2": c.rand(s.n, dtype="fp32", hi=0.1)},
         outputs={"p": "keep", "m1": "keep", "m2": "keep"}, ref=_adam_ref,
         tol={"p": (1e-5, 1e-5), "m1": (1e-6, 1e-5), "m2": (1e-6, 1e-5)},
         bytes=lambda s, e: s.n * (24 + e)))

add(Case("layout.py", "cast_scale_kernel", "fp32 to the case's dtype through Y.dtype.element_ty",
         [Ptr("x", "fp32"), Ptr("y"), Int("n", lambda s: s.n), Float("scale", lambda s: 0.5),
          Const("BLOCK", lambda s: 1024)],
         VEC_SHAPES, F, vec_grid(1024), 4,
         make=lambda c, s: {"x": c.randn(s.n, dtype="fp32", scale=100.0), "y": c.empty(s.n)},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": (t["x"] * 0.5).to(c.dt)},
         tol={"y": (0, 0)},
         bytes=lambda s, e: s.n * (4 + e)))

# ---------------------------------------------------------------- softmax
ROW_SHAPES = [shape("small", M=256, N=128, sx=128, sy=128),
              shape("large", M=16384, N=4096, sx=4096, sy=4096),
              shape("odd", M=1823, N=781, sx=784, sy=781)]


def _softmax_ref(c, s, t):
    return {"y": c.torch.softmax(t["x"].float(), dim=1)}


def _rows_make(c, s):
    return {"x": c.mat(s.M, s.N, s.sx, scale=2.0), "y": c.mat(s.M, s.N, s.sy, fill="empty")}


add(Case("softmax.py", "softmax_row_kernel", "fused softmax, one row per program in one tile",
         [Ptr("x"), Ptr("y"), Int("N", lambda s: s.N), Int("stride_x", lambda s: s.sx),
          Int("stride_y", lambda s: s.sy), Const("BLOCK", lambda s: next_pow2(s.N))],
         ROW_SHAPES, F, lambda s, sms: (s.M,),
         lambda s, dt: row_warps(next_pow2(s.N), 4),
         make=_rows_make, outputs={"y": POISON}, ref=_softmax_ref,
         bytes=lambda s, e: 2 * s.M * s.N * e))

add(Case("softmax.py", "softmax_persistent_kernel",
         "softmax with `for row in range(pid, n_rows, num_programs)`",
         [Ptr("x"), Ptr("y"), Int("n_rows", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride_x", lambda s: s.sx), Int("stride_y", lambda s: s.sy),
          Const("BLOCK", lambda s: next_pow2(s.N))],
         [shape("small", M=100, N=64, sx=64, sy=64),
          shape("large", M=65536, N=1024, sx=1024, sy=1024),
          shape("odd", M=10000, N=1000, sx=1008, sy=1000)],
         F, lambda s, sms: (min(s.M, 4 * sms),),
         lambda s, dt: row_warps(next_pow2(s.N), 4),
         make=_rows_make, outputs={"y": POISON}, ref=_softmax_ref,
         bytes=lambda s, e: 2 * s.M * s.N * e))

add(Case("softmax.py", "softmax_online_kernel",
         "long rows: online max/sum with loop-carried fp32 tiles, then a second loop",
         [Ptr("x"), Ptr("y"), Int("N", lambda s: s.N), Int("stride", lambda s: s.sx),
          Const("BLOCK", lambda s: 2048)],
         [shape("small", M=32, N=5000, sx=5000, sy=5000),
          shape("large", M=4096, N=32768, sx=32768, sy=32768),
          shape("odd", M=300, N=50257, sx=50259, sy=50259)],
         F, lambda s, sms: (s.M,), 8,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx, scale=2.0),
                            "y": c.mat(s.M, s.N, s.sx, fill="empty")},
         outputs={"y": POISON}, ref=_softmax_ref,
         bytes=lambda s, e: 3 * s.M * s.N * e))

# ---------------------------------------------------------------- reductions
add(Case("reductions.py", "row_sum_kernel",
         "2-D fp32 tile carried through a loop over columns, tl.sum along axis 1",
         [Ptr("x"), Ptr("out", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Const("BLOCK_M", lambda s: 8),
          Const("BLOCK_N", lambda s: 256)],
         [shape("small", M=64, N=512, sx=512), shape("large", M=16384, N=8192, sx=8192),
          shape("odd", M=1001, N=1999, sx=2000)],
         F, lambda s, sms: (cdiv(s.M, 8),), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "out": c.empty(s.M, dtype="fp32")},
         outputs={"out": POISON},
         ref=lambda c, s, t: {"out": t["x"].double().sum(dim=1)},
         tol={"out": (1e-3, 1e-4)},
         bytes=lambda s, e: s.M * s.N * e + 4 * s.M))

add(Case("reductions.py", "row_dot_kernel",
         "per-row dot products of two [M, 64] tiles stored per row (the loads' fast "
         "dimension is not the store's)",
         [Ptr("a"), Ptr("b"), Ptr("out", "fp32"), Int("M", lambda s: s.M),
          Const("HEAD", lambda s: 64), Const("BLOCK_M", lambda s: 128)],
         [shape("small", M=256), shape("large", M=1 << 20), shape("odd", M=1001)],
         F16, lambda s, sms: (cdiv(s.M, 128),), 4,
         make=lambda c, s: {"a": c.randn(s.M, 64), "b": c.randn(s.M, 64),
                            "out": c.empty(s.M, dtype="fp32")},
         outputs={"out": POISON},
         ref=lambda c, s, t: {"out": (t["a"].double() * t["b"].double()).sum(dim=1)},
         tol={"out": (1e-3, 1e-4)},
         bytes=lambda s, e: 2 * s.M * 64 * e + 4 * s.M))

add(Case("reductions.py", "col_max_kernel",
         "running-maximum 2-D tile down the rows, tl.max along axis 0",
         [Ptr("x"), Ptr("out", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Const("BLOCK_M", lambda s: 32),
          Const("BLOCK_N", lambda s: 64)],
         [shape("small", M=512, N=256, sx=256), shape("large", M=16384, N=8192, sx=8192),
          shape("odd", M=3001, N=999, sx=1000)],
         F, lambda s, sms: (cdiv(s.N, 64),), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "out": c.empty(s.N, dtype="fp32")},
         outputs={"out": POISON},
         ref=lambda c, s, t: {"out": t["x"].float().amax(dim=0)},
         tol={"out": (0, 0)},
         bytes=lambda s, e: s.M * s.N * e + 4 * s.N))

COL_SPLITS = 4
add(Case("reductions.py", "col_sum_while_kernel",
         "few programs, a 2-D tile summed in a `while` loop, tl.sum along axis 0, atomics",
         [Ptr("x"), Ptr("out", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Int("rows_per_program", lambda s: cdiv(s.M, COL_SPLITS)),
          Const("BLOCK_M", lambda s: 32), Const("BLOCK_N", lambda s: 128)],
         [shape("small", M=256, N=128, sx=128), shape("large", M=32768, N=1024, sx=1024),
          shape("odd", M=5003, N=300, sx=304)],
         F, lambda s, sms: (cdiv(s.N, 128), COL_SPLITS), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "out": c.zeros(s.N, dtype="fp32")},
         outputs={"out": "zero"},
         ref=lambda c, s, t: {"out": t["x"].double().sum(dim=0)},
         tol={"out": (1e-2, 1e-4)},
         bytes=lambda s, e: s.M * s.N * e + 4 * s.N))

add(Case("reductions.py", "row_argmax_kernel",
         "argmax from tl.max then tl.min over tl.where(x == max, cols, BLOCK), int32 output",
         [Ptr("x"), Ptr("idx", "i32"), Ptr("val", "fp32"), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Const("BLOCK", lambda s: next_pow2(s.N))],
         [shape("small", M=128, N=100, sx=100), shape("large", M=32768, N=2048, sx=2048),
          shape("odd", M=999, N=1531, sx=1536)],
         F, lambda s, sms: (s.M,), lambda s, dt: row_warps(next_pow2(s.N), 4),
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "idx": c.empty(s.M, dtype="i32"),
                            "val": c.empty(s.M, dtype="fp32")},
         outputs={"idx": POISON, "val": POISON},
         ref=lambda c, s, t: {"idx": t["x"].float().argmax(dim=1).int(),
                              "val": t["x"].float().amax(dim=1)},
         tol={"val": (0, 0)},
         bytes=lambda s, e: s.M * s.N * e + 8 * s.M))


def _int_range_ref(c, s, t):
    x = t["x"].int()
    return {"out": x.amax(dim=1) - x.amin(dim=1)}


add(Case("reductions.py", "int_row_range_kernel",
         "int8/int32 rows: loop-carried int tiles, tl.min/tl.max of ints",
         [Ptr("x"), Ptr("out", "i32"), Int("N", lambda s: s.N), Int("stride", lambda s: s.sx),
          Const("BLOCK", lambda s: 1024)],
         [shape("small", M=64, N=300, sx=300), shape("large", M=8192, N=4096, sx=4096),
          shape("odd", M=777, N=1234, sx=1240)],
         ("i8", "i32"), lambda s, sms: (s.M,), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx, fill="int"), "out": c.empty(s.M, dtype="i32")},
         outputs={"out": POISON}, ref=_int_range_ref,
         bytes=lambda s, e: s.M * s.N * e + 4 * s.M))

# ---------------------------------------------------------------- loops
HORNER_DEGREE = 8
add(Case("loops_atomics.py", "horner_kernel",
         "runtime-length `for` loop carrying an fp32 tile, scalar loads in the loop",
         [Ptr("x"), Ptr("coef", "fp32"), Ptr("y"), Int("n", lambda s: s.n),
          Int("degree", lambda s: HORNER_DEGREE), Const("BLOCK", lambda s: 1024)],
         VEC_SHAPES, F, vec_grid(1024), 4,
         make=lambda c, s: {"x": c.rand(s.n, lo=-1.0, hi=1.0),
                            "coef": c.rand(HORNER_DEGREE + 1, dtype="fp32", lo=-0.5, hi=0.5),
                            "y": c.empty(s.n)},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": _horner(t["x"].double(), t["coef"].double())},
         bytes=lambda s, e: 2 * s.n * e))


def _horner(x, coef):
    acc = x * 0 + coef[0]
    for i in range(1, coef.numel()):
        acc = acc * x + coef[i]
    return acc


def _collatz_ref(c, s, t):
    torch = c.torch
    v = t["x"].clone()
    steps = torch.zeros_like(v)
    for _ in range(s.steps):
        active = v != 1
        nxt = torch.where(v % 2 == 0, v // 2, 3 * v + 1)
        v = torch.where(active, nxt, v)
        steps += active.int()
    return {"steps": steps}


add(Case("loops_atomics.py", "collatz_steps_kernel",
         "`while` on a data-dependent scalar condition (a tl.sum), int32 tiles and scalars carried",
         [Ptr("x", "i32"), Ptr("steps", "i32"), Int("n", lambda s: s.n),
          Int("max_steps", lambda s: s.steps), Const("BLOCK", lambda s: 1024)],
         [shape("small", n=4096, steps=64), shape("large", n=1 << 22, steps=128),
          shape("odd", n=100003, steps=200)],
         ("i32",), vec_grid(1024), 4,
         make=lambda c, s: {"x": c.randint(1, 1000, s.n), "steps": c.empty(s.n, dtype="i32")},
         outputs={"steps": POISON}, ref=_collatz_ref,
         bytes=lambda s, e: 8 * s.n))

# ---------------------------------------------------------------- atomics
HIST_LO, HIST_RANGE = -4.0, 8.0


def _hist_ref(c, s, t):
    torch = c.torch
    pos = (t["x"].float() - HIST_LO) * (s.bins / HIST_RANGE)
    b = pos.to(torch.int32)
    ok = (pos >= 0) & (b < s.bins)
    return {"hist": torch.bincount(b[ok].long(), minlength=s.bins).int()}


add(Case("loops_atomics.py", "histogram_kernel", "int32 atomic_add histogram with a computed mask",
         [Ptr("x"), Ptr("hist", "i32"), Int("n", lambda s: s.n), Int("num_bins", lambda s: s.bins),
          Float("lo", lambda s: HIST_LO), Float("inv_width", lambda s: s.bins / HIST_RANGE),
          Const("BLOCK", lambda s: 1024)],
         [shape("small", n=4096, bins=16), shape("large", n=1 << 24, bins=256),
          shape("odd", n=1_000_003, bins=100)],
         F, vec_grid(1024), 4,
         make=lambda c, s: {"x": c.randn(s.n, scale=1.5), "hist": c.zeros(s.bins, dtype="i32")},
         outputs={"hist": "zero"}, ref=_hist_ref,
         bytes=lambda s, e: s.n * e))


def _scatter_ref(c, s, t):
    out = c.torch.zeros(s.T, s.D, device=c.dev, dtype=c.torch.float32)
    return {"out": out.index_add_(0, t["index"], t["src"].float())}


add(Case("loops_atomics.py", "scatter_add_kernel", "fp32 atomic_add scatter of rows by int64 index",
         [Ptr("index", "i64"), Ptr("src"), Ptr("out", "fp32"), Int("D", lambda s: s.D),
          Int("stride_src", lambda s: s.ss), Int("stride_out", lambda s: s.D),
          Const("BLOCK_D", lambda s: 128)],
         [shape("small", R=256, T=64, D=64, ss=64), shape("large", R=65536, T=4096, D=512, ss=512),
          shape("odd", R=3001, T=97, D=300, ss=305)],
         F, lambda s, sms: (s.R, cdiv(s.D, 128)), 4,
         make=lambda c, s: {"index": c.randint(0, s.T, s.R, dtype="i64"),
                            "src": c.mat(s.R, s.D, s.ss), "out": c.zeros(s.T, s.D, dtype="fp32")},
         outputs={"out": "zero"}, ref=_scatter_ref,
         tol={"out": (1e-3, 1e-4)},
         bytes=lambda s, e: s.R * (s.D * (e + 4) + 8)))

add(Case("loops_atomics.py", "sq_err_sum_kernel",
         "tl.static_range chunks, a scalar fp32 atomic_add per program",
         [Ptr("a"), Ptr("b"), Ptr("out", "fp32"), Int("n", lambda s: s.n),
          Const("BLOCK", lambda s: 1024), Const("CHUNKS", lambda s: 4)],
         VEC_SHAPES, F, vec_grid(4096), 4,
         make=lambda c, s: {"a": c.randn(s.n), "b": c.randn(s.n), "out": c.zeros(1, dtype="fp32")},
         outputs={"out": "zero"},
         ref=lambda c, s, t: {"out": ((t["a"].double() - t["b"].double()) ** 2).sum().reshape(1)},
         # Up to 8192 fp32 partial sums added atomically in any order.
         tol={"out": (1e-3, 1e-3)},
         bytes=lambda s, e: 2 * s.n * e))

# ---------------------------------------------------------------- gathers
add(Case("loops_atomics.py", "embedding_kernel", "int64 index load, then a row gather",
         [Ptr("ids", "i64"), Ptr("table"), Ptr("out"), Int("D", lambda s: s.D),
          Int("stride_t", lambda s: s.st), Int("stride_o", lambda s: s.D),
          Const("BLOCK_D", lambda s: min(1024, next_pow2(s.D)))],
         [shape("small", T=128, V=1000, D=64, st=64),
          shape("large", T=16384, V=50000, D=1024, st=1024),
          shape("odd", T=999, V=3001, D=300, st=304)],
         F, lambda s, sms: (s.T,), 4,
         make=lambda c, s: {"ids": c.randint(0, s.V, s.T, dtype="i64"),
                            "table": c.mat(s.V, s.D, s.st), "out": c.empty(s.T, s.D)},
         outputs={"out": POISON},
         ref=lambda c, s, t: {"out": t["table"][t["ids"]]},
         tol={"out": (0, 0)},
         bytes=lambda s, e: s.T * (2 * s.D * e + 8)))


def _gather_ref(c, s, t):
    idx = t["idx"].long()
    ok = (idx >= 0) & (idx < s.src)
    v = t["x"][idx.clamp(0, s.src - 1)]
    return {"y": c.torch.where(ok, v, c.torch.full_like(v, -7.5))}


add(Case("loops_atomics.py", "masked_gather_kernel",
         "gather whose mask depends on loaded int32 indices, runtime `other=`",
         [Ptr("x"), Ptr("idx", "i32"), Ptr("y"), Int("n_src", lambda s: s.src),
          Int("n", lambda s: s.n), Float("fill", lambda s: -7.5), Const("BLOCK", lambda s: 1024)],
         [shape("small", src=1000, n=4096), shape("large", src=1 << 22, n=1 << 24),
          shape("odd", src=12345, n=100003)],
         F, vec_grid(1024), 4,
         make=lambda c, s: {"x": c.randn(s.src), "y": c.empty(s.n),
                            "idx": c.randint(-(s.src // 8), s.src + s.src // 8, s.n)},
         outputs={"y": POISON}, ref=_gather_ref,
         tol={"y": (0, 0)},
         bytes=lambda s, e: s.n * (2 * e + 4)))

# ---------------------------------------------------------------- cross-entropy
IGNORE = -100


def _ce_make(c, s, bwd=False):
    torch = c.torch
    t = {"logits": c.mat(s.M, s.V, s.sx, scale=3.0),
         "target": c.randint(0, s.V, s.M, dtype="i64")}
    t["target"][::7] = IGNORE
    if bwd:
        t["lse"] = torch.logsumexp(t["logits"].float(), dim=1)
        t["dloss"] = c.rand(s.M, dtype="fp32", lo=0.5, hi=1.5)
        t["dlogits"] = c.mat(s.M, s.V, s.sx, fill="empty")
    else:
        t["loss"] = c.empty(s.M, dtype="fp32")
        t["lse"] = c.empty(s.M, dtype="fp32")
    return t


def _ce_fwd_ref(c, s, t):
    x = t["logits"].float()
    loss = c.torch.nn.functional.cross_entropy(x, t["target"], reduction="none",
                                               ignore_index=IGNORE)
    return {"loss": loss, "lse": c.torch.logsumexp(x, dim=1)}


def _ce_bwd_ref(c, s, t):
    torch = c.torch
    x = t["logits"].float()
    p = torch.exp(x - t["lse"][:, None])
    keep = t["target"] != IGNORE
    p[keep, t["target"][keep]] -= 1.0
    scale = torch.where(keep, t["dloss"], torch.zeros_like(t["dloss"]))
    return {"dlogits": p * scale[:, None]}


CE_SHAPES = [shape("small", M=64, V=1000, sx=1000), shape("large", M=4096, V=32000, sx=32000),
             shape("odd", M=777, V=50257, sx=50264)]


def _ce_block(s):
    return min(4096, next_pow2(s.V))


add(Case("cross_entropy.py", "cross_entropy_fwd_kernel",
         "two passes over long rows (max, then sum of exp), a masked scalar gather, tl.log",
         [Ptr("logits"), Ptr("target", "i64"), Ptr("loss", "fp32"), Ptr("lse", "fp32"),
          Int("V", lambda s: s.V), Int("stride", lambda s: s.sx),
          Int("ignore_index", lambda s: IGNORE), Const("BLOCK", _ce_block)],
         CE_SHAPES, F, lambda s, sms: (s.M,), lambda s, dt: 8 if _ce_block(s) > 1024 else 4,
         make=_ce_make, outputs={"loss": POISON, "lse": POISON}, ref=_ce_fwd_ref,
         tol={"loss": (1e-4, 1e-5), "lse": (1e-4, 1e-5)},
         bytes=lambda s, e: 2 * s.M * s.V * e + 16 * s.M))

add(Case("cross_entropy.py", "cross_entropy_bwd_kernel",
         "softmax minus one-hot from a saved logsumexp, ignored rows",
         [Ptr("logits"), Ptr("target", "i64"), Ptr("lse", "fp32"), Ptr("dloss", "fp32"),
          Ptr("dlogits"), Int("V", lambda s: s.V), Int("stride", lambda s: s.sx),
          Int("ignore_index", lambda s: IGNORE), Const("BLOCK", _ce_block)],
         CE_SHAPES, F, lambda s, sms: (s.M,), lambda s, dt: 8 if _ce_block(s) > 1024 else 4,
         make=lambda c, s: _ce_make(c, s, bwd=True), outputs={"dlogits": POISON},
         ref=_ce_bwd_ref,
         bytes=lambda s, e: 2 * s.M * s.V * e + 20 * s.M))

# ---------------------------------------------------------------- norms
NORM_SHAPES = [shape("small", M=128, N=512, sx=512, sy=512),
               shape("large", M=16384, N=4096, sx=4096, sy=4096),
               shape("odd", M=1000, N=1000, sx=1000, sy=1000)]
RMS_EPS, LN_EPS = 1e-6, 1e-5


def _row_block(s):
    return next_pow2(s.N)


def _row_warps(s, dt):
    return row_warps(next_pow2(s.N), 4)


def _rms_rstd(c, x):
    return c.torch.rsqrt(x.float().pow(2).mean(dim=1) + RMS_EPS)


def _rms_fwd_ref(c, s, t):
    rstd = _rms_rstd(c, t["x"])
    return {"y": t["x"].float() * rstd[:, None] * t["w"].float(), "rstd": rstd}


add(Case("norms.py", "rmsnorm_fwd_kernel", "RMSNorm forward, tl.rsqrt, one row per program",
         [Ptr("x"), Ptr("w"), Ptr("y"), Ptr("rstd", "fp32"), Int("N", lambda s: s.N),
          Int("stride_x", lambda s: s.sx), Int("stride_y", lambda s: s.sy),
          Float("eps", lambda s: RMS_EPS), Const("BLOCK", _row_block)],
         NORM_SHAPES, F, lambda s, sms: (s.M,), _row_warps,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "w": c.rand(s.N, lo=0.5, hi=1.5),
                            "y": c.mat(s.M, s.N, s.sy, fill="empty"),
                            "rstd": c.empty(s.M, dtype="fp32")},
         outputs={"y": POISON, "rstd": POISON}, ref=_rms_fwd_ref,
         tol={"rstd": (1e-5, 1e-5)},
         bytes=lambda s, e: (2 * s.M * s.N + s.N) * e + 4 * s.M))


def _norm_bwd_make(c, s, layer):
    torch = c.torch
    x = c.mat(s.M, s.N, s.sx)
    t = {"dy": c.mat(s.M, s.N, s.sx), "x": x, "w": c.rand(s.N, lo=0.5, hi=1.5),
         "dx": c.mat(s.M, s.N, s.sx, fill="empty"), "dw": c.zeros(s.N, dtype="fp32")}
    if layer:
        var, mean = torch.var_mean(x.float(), dim=1, unbiased=False)
        t["mean"], t["rstd"] = mean, torch.rsqrt(var + LN_EPS)
        t["db"] = c.zeros(s.N, dtype="fp32")
    else:
        t["rstd"] = _rms_rstd(c, x)
    return t


def _norm_bwd_ref(c, s, t, layer):
    torch = c.torch
    x = t["x"].float().clone().requires_grad_(True)
    w = t["w"].float().clone().requires_grad_(True)
    with torch.enable_grad():
        if layer:
            b = torch.zeros_like(w, requires_grad=True)
            y = torch.nn.functional.layer_norm(x, (s.N,), w, b, LN_EPS)
        else:
            y = x * _rms_rstd(c, x)[:, None] * w
        y.backward(t["dy"].float())
    out = {"dx": x.grad, "dw": w.grad}
    if layer:
        out["db"] = b.grad
    return out


def _persistent_rows(s, sms):
    return (min(s.M, 2 * sms),)


BWD_TOL = {"dw": (1e-2, 1e-3), "db": (1e-2, 1e-3)}
add(Case("norms.py", "rmsnorm_bwd_kernel",
         "RMSNorm backward: grid-stride `for` over rows, dw in a register tile, atomics",
         [Ptr("dy"), Ptr("x"), Ptr("w"), Ptr("rstd", "fp32"), Ptr("dx"), Ptr("dw", "fp32"),
          Int("M", lambda s: s.M), Int("N", lambda s: s.N), Int("stride", lambda s: s.sx),
          Const("BLOCK", _row_block)],
         NORM_SHAPES, F, _persistent_rows, _row_warps,
         make=lambda c, s: _norm_bwd_make(c, s, False),
         outputs={"dx": POISON, "dw": "zero"}, ref=lambda c, s, t: _norm_bwd_ref(c, s, t, False),
         tol={"dw": BWD_TOL["dw"]},
         bytes=lambda s, e: (3 * s.M * s.N + s.N) * e + 4 * s.M + 4 * s.N))


def _ln_fwd_ref(c, s, t):
    torch = c.torch
    x = t["x"].float()
    var, mean = torch.var_mean(x, dim=1, unbiased=False)
    y = torch.nn.functional.layer_norm(x, (s.N,), t["w"].float(), t["b"].float(), LN_EPS)
    return {"y": y, "mean": mean, "rstd": torch.rsqrt(var + LN_EPS)}


add(Case("norms.py", "layernorm_fwd_kernel", "LayerNorm forward with the row in one tile",
         [Ptr("x"), Ptr("w"), Ptr("b"), Ptr("y"), Ptr("mean", "fp32"), Ptr("rstd", "fp32"),
          Int("N", lambda s: s.N), Int("stride", lambda s: s.sx), Float("eps", lambda s: LN_EPS),
          Const("BLOCK", _row_block)],
         NORM_SHAPES, F, lambda s, sms: (s.M,), _row_warps,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx, scale=2.0), "w": c.rand(s.N, lo=0.5, hi=1.5),
                            "b": c.randn(s.N), "y": c.mat(s.M, s.N, s.sx, fill="empty"),
                            "mean": c.empty(s.M, dtype="fp32"), "rstd": c.empty(s.M, dtype="fp32")},
         outputs={"y": POISON, "mean": POISON, "rstd": POISON}, ref=_ln_fwd_ref,
         tol={"mean": (1e-5, 1e-5), "rstd": (1e-5, 1e-5)},
         bytes=lambda s, e: (2 * s.M * s.N + 2 * s.N) * e + 8 * s.M))

add(Case("norms.py", "layernorm_bwd_kernel",
         "LayerNorm backward: grid-stride `while` over rows, dw/db register tiles, atomics",
         [Ptr("dy"), Ptr("x"), Ptr("w"), Ptr("mean", "fp32"), Ptr("rstd", "fp32"), Ptr("dx"),
          Ptr("dw", "fp32"), Ptr("db", "fp32"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride", lambda s: s.sx), Const("BLOCK", _row_block)],
         NORM_SHAPES, F, _persistent_rows, _row_warps,
         make=lambda c, s: _norm_bwd_make(c, s, True),
         outputs={"dx": POISON, "dw": "zero", "db": "zero"},
         ref=lambda c, s, t: _norm_bwd_ref(c, s, t, True),
         tol=BWD_TOL,
         bytes=lambda s, e: (3 * s.M * s.N + s.N) * e + 8 * s.M + 8 * s.N))

# ---------------------------------------------------------------- addressing
add(Case("layout.py", "batched_transpose_kernel",
         "3-D grid (program_id(2) = batch), a transpose done by addressing",
         [Ptr("x"), Ptr("y"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride_xb", lambda s: s.M * s.N), Int("stride_xm", lambda s: s.N),
          Int("stride_yb", lambda s: s.M * s.N), Int("stride_ym", lambda s: s.M),
          Const("BLOCK_M", lambda s: 32), Const("BLOCK_N", lambda s: 32)],
         [shape("small", B=2, M=64, N=128), shape("large", B=16, M=2048, N=1024),
          shape("odd", B=3, M=1000, N=333)],
         F16, lambda s, sms: (cdiv(s.M, 32), cdiv(s.N, 32), s.B), 4,
         make=lambda c, s: {"x": c.randn(s.B, s.M, s.N), "y": c.empty(s.B, s.N, s.M)},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": t["x"].transpose(1, 2)},
         tol={"y": (0, 0)},
         bytes=lambda s, e: 2 * s.B * s.M * s.N * e))

add(Case("layout.py", "row_copy_persistent_kernel",
         "persistent grid-stride row copy addressed as r * stride (strides % 16 == 0 and not)",
         [Ptr("x"), Ptr("y"), Int("M", lambda s: s.M), Int("N", lambda s: s.N),
          Int("stride_x", lambda s: s.sx), Int("stride_y", lambda s: s.sy),
          Const("BLOCK", lambda s: 1024)],
         [shape("small", M=100, N=256, sx=256, sy=256),
          shape("large", M=16384, N=4096, sx=4160, sy=4096),
          shape("odd", M=3000, N=1000, sx=1003, sy=1001)],
         F, lambda s, sms: (min(s.M, 4 * sms),), 4,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "y": c.mat(s.M, s.N, s.sy, fill="empty")},
         outputs={"y": POISON},
         ref=lambda c, s, t: {"y": t["x"].clone()},
         tol={"y": (0, 0)},
         bytes=lambda s, e: 2 * s.M * s.N * e))


def _rope_make(c, s):
    torch = c.torch
    pos = torch.arange(s.S, device=c.dev, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(s.H2, device=c.dev, dtype=torch.float32) / s.H2)
    ang = pos * freq[None, :]
    return {"x": c.randn(s.T, s.H, 2 * s.H2), "cos": ang.cos().contiguous(),
            "sin": ang.sin().contiguous(), "y": c.empty(s.T, s.H, 2 * s.H2)}


def _rope_ref(c, s, t):
    torch = c.torch
    x = t["x"].float()
    pos = torch.arange(s.T, device=c.dev) % s.S
    cos, sin = t["cos"][pos][:, None, :], t["sin"][pos][:, None, :]
    x1, x2 = x[..., :s.H2], x[..., s.H2:]
    return {"y": torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)}


add(Case("layout.py", "rope_kernel", "rotary embedding: 2-D grid, two half-row loads, % on pids",
         [Ptr("x"), Ptr("cos", "fp32"), Ptr("sin", "fp32"), Ptr("y"),
          Int("seq_len", lambda s: s.S), Int("stride_xt", lambda s: s.H * 2 * s.H2),
          Int("stride_xh", lambda s: 2 * s.H2), Int("stride_c", lambda s: s.H2),
          Const("HALF", lambda s: s.H2)],
         [shape("small", T=64, H=4, H2=32, S=64), shape("large", T=8192, H=32, H2=64, S=4096),
          shape("odd", T=1001, H=7, H2=16, S=333)],
         F, lambda s, sms: (s.T, s.H), lambda s, dt: 1 if s.H2 <= 32 else 2,
         make=_rope_make, outputs={"y": POISON}, ref=_rope_ref,
         bytes=lambda s, e: 4 * s.T * s.H * s.H2 * e + 16 * s.T * s.H2))


def _quant_ref(c, s, t):
    torch = c.torch
    x = t["x"].float()
    amax = x.abs().amax(dim=1).clamp_min(1e-8)
    y = x * (127.0 / amax)[:, None]
    q = torch.where(y >= 0, y + 0.5, y - 0.5).trunc().to(torch.int8)
    return {"q": q, "scale": amax / 127.0}


add(Case("layout.py", "quantize_rows_int8_kernel",
         "per-row absmax int8 quantization: tl.abs, float to int8 stores",
         [Ptr("x"), Ptr("q", "i8"), Ptr("scale", "fp32"), Int("N", lambda s: s.N),
          Int("stride_x", lambda s: s.sx), Int("stride_q", lambda s: s.sy),
          Const("BLOCK", _row_block)],
         [shape("small", M=128, N=512, sx=512, sy=512),
          shape("large", M=16384, N=4096, sx=4096, sy=4096),
          shape("odd", M=1000, N=1000, sx=1003, sy=1000)],
         F, lambda s, sms: (s.M,), _row_warps,
         make=lambda c, s: {"x": c.mat(s.M, s.N, s.sx), "q": c.mat(s.M, s.N, s.sy, dtype="i8",
                                                                   fill="empty"),
                            "scale": c.empty(s.M, dtype="fp32")},
         outputs={"q": POISON, "scale": POISON}, ref=_quant_ref,
         # Division may be approximate (div.full): allow one code of difference.
         tol={"q": (1, 0), "scale": (1e-8, 1e-6)},
         bytes=lambda s, e: s.M * s.N * (e + 1) + 4 * s.M))


def instances(pattern=None, quick=False):
    """Every (case, shape, dtype) point, in corpus order; `pattern` keeps the
    ids (case/shape/dtype) that contain it, or one of its comma-separated
    parts; `quick` keeps the first shape."""
    from corpus_model import Instance
    parts = None if pattern is None else pattern.split(",")
    out = []
    for case in CASES:
        for s in case.shapes[:1] if quick else case.shapes:
            for dt in case.dtypes:
                inst = Instance(case, s, dt)
                if parts is None or any(p in inst.id for p in parts):
                    out.append(inst)
    return out


# ---------------------------------------------------------------- tensor cores
from dot_cases import DOT_CASES  # noqa: E402

CASES.extend(DOT_CASES)
