"""Host side of examples/layernorm/layer_norm_fast.py for Python (torch tensors).

The same variant choice as kiln::rt::LayerNorm (lib/Runtime/LayerNormPlan.cpp;
docs/layernorm.md explains it), written again here so that the benchmark and
the device correctness script launch the kernels through Kiln's Python
package exactly as a user would: `kiln.jit(path)._norm_fwd[grid](...)`.
`FastNorm(module)` takes any object whose attributes are launchable kernels,
so the same file can also run under Triton (`--ours-under-triton`).
bench/test_layernorm_plan.py checks plan_forward / plan_backward against
`ln-bench --plan` (the C++ rules) shape by shape.
"""
import math

try:
    import torch
except ImportError:  # the plans need no torch (their test runs on CI)
    torch = None


# When set, every output and scratch buffer starts as NaN (device correctness
# script): an element a kernel fails to write shows up as a mismatch.
POISON = False


def _empty(shape, **kw):
    t = torch.empty(shape, **kw)
    if POISON:
        t.fill_(float("nan"))
    return t


def _empty_like(x):
    return _empty(x.shape, dtype=x.dtype, device=x.device)


def next_pow2(n):
    return 1 << max(0, (int(n) - 1).bit_length())


def cdiv(a, b):
    return (a + b - 1) // b


# Largest row the one-pass kernels hold in registers, in elements.
FWD_ONE_PASS_MAX = 32768
BWD_ONE_PASS_MAX = 8192
# Elements per program tile: enough bytes in flight for small rows.
FWD_TILE = 4096
BWD_TILE = 4096
FWD_CHUNK = 4096
FWD_LONG_CHUNK = 16384
FWD_SMALL_CHUNK_MAX = 32768
BWD_CHUNK = 2048
BWD_CHUNK_PER_SM = 4
BWD_COLUMNS_WARPS = 16
# The columns backward for BLOCK_N 8192-16384: 16384-column chunks, 8192 with
# a second output or fp32; not with dx options, nor fp32 at 8192
# (LayerNormPlan.cpp's kBwdColumns*).
BWD_COLUMNS_MIN_BLOCK = 8192
BWD_COLUMNS_MAX_BLOCK = 16384
BWD_COLUMNS_CHUNK = 16384
BWD_COLUMNS_CHUNK_NARROW = 8192
# The cooperative backward beyond: 8192-column chunks, 16 warps (8 at bf16),
# one program per SM (LayerNormPlan.cpp's kBwdCoop*).
BWD_COOP_CHUNK = 8192
BWD_COOP_WARPS = 16
BWD_COOP_WARPS_BF16 = 8
# The cooperative forward from BLOCK_N 131072 on (fp16, lean):
# 16384-column chunks at 16 warps (LayerNormPlan.cpp's kFwdCoop*).
FWD_COOP_MIN_BLOCK = 131072
FWD_COOP_CHUNK = 16384
FWD_COOP_WARPS = 16
FWD_LONG_CHUNK_WARPS = 16
MAX_ROWS = 128
# The pipelined kernels (LayerNormPlan.cpp's kFwdPipeMinBlock etc.).
FWD_PIPE_BLOCK = 16384
# BLOCK_N = 16384 runs the chunked forward (LayerNormPlan.cpp's kFwdChunkedBlock).
FWD_CHUNKED_BLOCK = 16384
# fp32 rows of BLOCK_N = 32768: chunked, 8192-element chunks at 16 warps
# (LayerNormPlan.cpp's kFwdChunkedBlockF32).
FWD_CHUNKED_BLOCK_FP32 = 32768
FWD_CHUNK_FP32 = 8192
FWD_PIPE_WARPS = 16
FWD_PIPE_PER_SM = 1
FWD_CHUNKED_PIPELINED = True
# Measured on the H200 (LayerNormPlan.cpp: kFwdShortRows, kFwdWide*,
# kFwdLongPipe*): plain LayerNorm / RMSNorm, fp16 / bf16.
FWD_SHORT_ROWS = 4
# The twenty-fourth session's H200 rules (LayerNormPlan.cpp): BLOCK_N 512 with
# few rows (at most FWD_WIDE_ROWS_PER_SM per SM) 4 rows at 2 warps; 1024 two
# rows at 2 (few) or 4 warps; 2048 four rows at 4 warps, or with few rows the
# pipelined kernel with 2 rows at 4 warps, 4 per SM; 4096 one row at 4 warps;
# 16384 whole rows, except many fp16 rows (chunked).
FWD_NARROW_BLOCK, FWD_NARROW_FEW_ROWS, FWD_NARROW_FEW_WARPS = 512, 4, 2
FWD_MID_BLOCK, FWD_MID_ROWS, FWD_MID_FEW_WARPS, FWD_MID_MANY_WARPS = 1024, 2, 2, 4
FWD_HALF_BLOCK, FWD_HALF_MANY_ROWS, FWD_HALF_FEW_ROWS = 2048, 4, 2
FWD_HALF_WARPS, FWD_HALF_PIPE_PER_SM = 4, 4
FWD_QUARTER_BLOCK, FWD_QUARTER_WARPS = 4096, 4  # 4096: one row at 4 warps
FWD_WIDE_BLOCK = 8192
FWD_WIDE_ROWS_PER_SM = 64
FWD_WIDE_ROWS = 2
FWD_WIDE_WARPS = 4
FWD_WIDE_PIPE_WARPS = 8
FWD_WIDE_PIPE_PER_SM = 4
FWD_LONG_PIPE_WARPS = 8
FWD_LONG_PIPE_PER_SM = 2
BWD_PIPE_MAX_BLOCK = 4096
BWD_PIPE_TILE = 2048
# fp16 / bf16 rows of 8192 without dx options or a second output: the
# pipelined one-pass backward at 16 warps (LayerNormPlan.cpp).
BWD_PIPE_WIDE_BLOCK = 8192
BWD_PIPE_WIDE_WARPS = 16


def plan_forward(M, N, tune=None, sms=132, lean=True, fp32=False, bf16=False):
    """(kernel, constexprs, num_warps, grid) of the forward. `tune` (bench
    --tune) may override rows, warps, pipe (one pass: the persistent pipelined
    kernel with pipe programs per SM, 0: _norm_fwd; chunked: the pipelined
    chunked kernel) and chunk (the chunked kernels, also for short rows).
    lean: no option adds live tensors (no residual_out, no second output).
    coop (with warps, per_sm, ahead): _norm_fwd_coop with that chunk length;
    its grid is (chunks * programs,) and it takes rows_per_program
    (consts["rows_per_program"], not a constexpr). Without `tune`, rows from
    BLOCK_N 131072 on take it (fp16, lean; LayerNormPlan.cpp); any
    key turns that off, e.g. {"no_coop": 1}."""
    tune = tune or {}
    block = next_pow2(N)
    if not tune and block >= FWD_COOP_MIN_BLOCK and not (fp32 or bf16) and lean \
            and cdiv(N, FWD_COOP_CHUNK) <= sms:
        tune = {"coop": FWD_COOP_CHUNK, "warps": FWD_COOP_WARPS}
    if tune.get("coop"):
        chunk = tune["coop"]
        chunks = cdiv(N, chunk)
        p = max(1, min(M, int(sms * tune.get("per_sm", 1)) // chunks))
        rpp = cdiv(M, p)
        return ("_norm_fwd_coop",
                dict(BLOCK_N=chunk, ROWS=1, CHUNKS_P2=next_pow2(chunks),
                     AHEAD=bool(tune.get("ahead", 1)), rows_per_program=rpp),
                tune.get("warps", 16), (chunks * cdiv(M, rpp),))
    fp32_row = fp32 and block == FWD_CHUNKED_BLOCK_FP32
    plain = lean and not fp32 and not tune
    few = M <= FWD_WIDE_ROWS_PER_SM * sms
    whole_16k = plain and (few or bf16)
    chunked_row = ((block == FWD_CHUNKED_BLOCK and not whole_16k) or fp32_row) \
        and "rows" not in tune
    if ((block <= FWD_ONE_PASS_MAX and not chunked_row) or "rows" in tune) \
            and "chunk" not in tune:
        rows = min(max(1, FWD_TILE // block), MAX_ROWS, next_pow2(max(M, 1)))
        heuristic = lean and not fp32 and not tune
        pipe, pipe_warps = (FWD_PIPE_PER_SM, FWD_PIPE_WARPS) \
            if block == FWD_PIPE_BLOCK else (0, None)
        cap = min(MAX_ROWS, next_pow2(max(M, 1)))
        set_warps = None
        if heuristic and block == FWD_NARROW_BLOCK and few:
            rows, set_warps = min(FWD_NARROW_FEW_ROWS, cap), FWD_NARROW_FEW_WARPS
        elif heuristic and block == FWD_MID_BLOCK:
            rows = min(FWD_MID_ROWS, cap)
            set_warps = FWD_MID_FEW_WARPS if few else FWD_MID_MANY_WARPS
        elif heuristic and block == FWD_HALF_BLOCK:
            rows = min(FWD_HALF_FEW_ROWS if few else FWD_HALF_MANY_ROWS, cap)
            set_warps = FWD_HALF_WARPS
            if few:
                pipe, pipe_warps = FWD_HALF_PIPE_PER_SM, FWD_HALF_WARPS
        elif heuristic and block == FWD_QUARTER_BLOCK:
            rows, set_warps = 1, FWD_QUARTER_WARPS
        elif heuristic and block == FWD_WIDE_BLOCK:
            if not few:
                rows = min(FWD_WIDE_ROWS, cap)
            else:
                pipe, pipe_warps = FWD_WIDE_PIPE_PER_SM, FWD_WIDE_PIPE_WARPS
        elif heuristic and block == FWD_ONE_PASS_MAX:
            pipe, pipe_warps = FWD_LONG_PIPE_PER_SM, FWD_LONG_PIPE_WARPS
        rows = tune.get("rows", rows)
        tile = rows * block
        pipe = tune.get("pipe", pipe)
        # 16 per thread up to 8 warps (32 for tiles of FWD_SHORT_ROWS rows or
        # more); 32768: 16 warps unless options add live tensors (lean: plain
        # LayerNorm / RMSNorm, as planNorm).
        per_thread = 1024 if heuristic and rows >= FWD_SHORT_ROWS else 512
        warps = min(max(tile // per_thread, 4),
                    (16 if lean else 32) if block >= 32768 else 8)
        if heuristic and block == FWD_WIDE_BLOCK and not pipe:
            warps = FWD_WIDE_WARPS
        if set_warps:
            warps = set_warps
        warps = tune.get("warps", pipe_warps if pipe_warps else warps)
        if pipe:
            return ("_norm_fwd_pipelined", dict(BLOCK_N=block, ROWS=rows), warps,
                    (max(1, min(cdiv(M, rows), int(pipe * sms))),))
        return "_norm_fwd", dict(BLOCK_N=block, ROWS=rows), warps, (cdiv(M, rows),)
    if fp32_row:
        chunk, warps = FWD_CHUNK_FP32, FWD_LONG_CHUNK_WARPS
    elif N <= FWD_SMALL_CHUNK_MAX:
        chunk, warps = FWD_CHUNK, 8
    else:
        chunk, warps = FWD_LONG_CHUNK, FWD_LONG_CHUNK_WARPS
    chunk = tune.get("chunk", chunk)
    warps = tune.get("warps", warps)
    pipe = tune.get("pipe", FWD_CHUNKED_PIPELINED)
    name = "_norm_fwd_chunked_pipelined" if pipe else "_norm_fwd_chunked"
    return name, dict(BLOCK_N=chunk, ROWS=1), warps, (M,)


def plan_backward(M, N, sms, tune=None, second_output=False, fp32=False,
                  dx_options=False, bf16=False):
    """Dict: variant ('rows', 'cols' or 'chunked'), constexprs, num_warps,
    programs (partial rows), rows_per_program, grid, and the reduction's
    parameters (LayerNormPlan.cpp's planNorm). `tune` may override rows,
    warps, chunk, per_sm (programs per SM), pipe (rows: _norm_bwd_pipelined;
    rows or pipe select 'rows' where it fits), cols (force 'cols'), coop
    (_norm_bwd_coop with that chunk length; ahead: 0 turns off its loading
    of the next row) and no_columns (no 'cols'); any key turns off the
    cooperative default, e.g. {"no_coop": 1}. dx_options: dresidual_in,
    dropout or row scale is on. Without `tune`, rows longer than the columns
    backward's take the cooperative one (fp16 / bf16, no dx option, no
    second output; LayerNormPlan.cpp)."""
    tune = tune or {}
    block = next_pow2(N)
    cols_chunk = tune.get("chunk", min(block, BWD_COLUMNS_CHUNK_NARROW
                                       if second_output or fp32 else BWD_COLUMNS_CHUNK))
    pipe_wide = (block == BWD_PIPE_WIDE_BLOCK and not (fp32 or dx_options or second_output)
                 and "rows" not in tune)
    pipelined = False
    columns = tune.get("cols") or (
        BWD_COLUMNS_MIN_BLOCK <= block <= BWD_COLUMNS_MAX_BLOCK and not dx_options
        and not pipe_wide
        and not tune.get("no_columns") and not (block == BWD_COLUMNS_MIN_BLOCK and fp32)
        and not (block <= BWD_ONE_PASS_MAX and ("rows" in tune or "pipe" in tune)))
    coop = tune.get("coop") or (
        not tune and block > BWD_COLUMNS_MAX_BLOCK and not (fp32 or dx_options or second_output)
        and cdiv(N, BWD_COOP_CHUNK) <= sms and BWD_COOP_CHUNK)
    if coop:
        # _norm_bwd_coop: chunk programs per row group, launched cooperatively.
        rows, block = 1, coop
        warps = tune.get("warps", BWD_COOP_WARPS_BF16 if bf16 else BWD_COOP_WARPS)
        chunks = cdiv(N, block)
        p = min(M, max(1, int(sms * tune.get("per_sm", 1)) // chunks))
        variant = "coop"
    elif columns:
        rows, block = 1, cols_chunk
        warps = tune.get("warps", BWD_COLUMNS_WARPS)
        chunks = cdiv(N, block)
        p = min(M, max(1, int(sms * tune.get("per_sm", 1)) // chunks))
        variant = "cols"
    elif block <= BWD_ONE_PASS_MAX:
        pipelined = tune.get("pipe", block <= BWD_PIPE_MAX_BLOCK or pipe_wide)
        tile = BWD_PIPE_TILE if pipelined else BWD_TILE
        rows = min(max(1, tile // block), MAX_ROWS, next_pow2(max(M, 1)))
        rows = tune.get("rows", rows)
        tile = rows * block
        warps = tune.get("warps", BWD_PIPE_WIDE_WARPS if pipe_wide and pipelined
                         else min(max(tile // 256, 4), 32))  # 8 per thread
        per_sm = tune.get("per_sm", (2 if warps <= 8 else 1) if pipelined
                          else (2 if warps <= 16 else 1))
        p = min(cdiv(M, rows), int(sms * per_sm))
        chunks = 1
        variant = "rows"
    else:
        rows, block = tune.get("rows", 4), tune.get("chunk", BWD_CHUNK)
        warps = tune.get("warps", 16)
        chunks = cdiv(N, block)
        p = min(cdiv(M, rows),
                max(1, cdiv(int(sms * tune.get("per_sm", BWD_CHUNK_PER_SM)), chunks)))
        variant = "chunked"
    p = max(p, 1)
    rpp = cdiv(cdiv(max(M, 1), p), rows) * rows
    p = max(1, cdiv(M, rpp))
    grid = {"rows": (p,), "cols": (chunks, p), "chunked": (p, chunks),
            "coop": (chunks * p,)}[variant]
    red_n = min(256, max(32, next_pow2(N) // 128))
    return dict(variant=variant, consts=dict(BLOCK_N=block, ROWS=rows),
                pipelined=bool(pipelined) and variant == "rows",
                num_warps=warps, programs=p, rows_per_program=rpp, grid=grid,
                reduce=dict(BLOCK_P=16, BLOCK_N=red_n), reduce_grid=(cdiv(N, red_n),))


class FastNorm:
    """LayerNorm / RMSNorm forward and backward with every option of the
    kernels. Tensors are 2-D [M, N] with unit column stride."""

    def __init__(self, module, sms=None, tune_fwd=None, tune_bwd=None, coop_module=None):
        self.k = module
        # layer_norm_coop.py's kernels (the cooperative forward and backward).
        self.c = coop_module if coop_module is not None else module
        self.sms = sms or torch.cuda.get_device_properties(0).multi_processor_count
        self.tune_fwd, self.tune_bwd = tune_fwd or {}, tune_bwd or {}

    def forward(self, x, w, b=None, eps=1e-5, *, rms=False, residual=None,
                store_residual=None, dropout_p=0.0, seed=0, rowscale=None,
                w1=None, b1=None):
        M, N = x.shape
        has_pre = residual is not None or dropout_p > 0 or rowscale is not None
        store_res = has_pre if store_residual is None else store_residual
        y = _empty_like(x)
        y1 = _empty_like(x) if w1 is not None else None
        res_out = _empty_like(x) if store_res else None
        mean = _empty((M,), dtype=torch.float32, device=x.device)
        rstd = _empty((M,), dtype=torch.float32, device=x.device)
        if M == 0:
            return dict(y=y, y1=y1, residual_out=res_out, mean=mean, rstd=rstd)
        name, consts, warps, grid = plan_forward(M, N, self.tune_fwd, self.sms,
                                                 lean=not (store_res or w1 is not None),
                                                 fp32=x.dtype == torch.float32,
                                                 bf16=x.dtype == torch.bfloat16)
        d = x  # stands in for pointers a switch turns off
        sync = []
        if name == "_norm_fwd_coop":
            chunks = cdiv(N, consts["BLOCK_N"])
            # The chunk statistics' 64-bit words, then the ticket (zeroed).
            words = torch.zeros((M * chunks * 2 + 1,), dtype=torch.int64, device=x.device)
            sync = [words[1:], words[:1].view(torch.int32)]
            consts = dict(consts, launch_cooperative_grid=True)
        rows_per_program = consts.pop("rows_per_program", None)
        getattr(self.c if sync else self.k, name)[grid](
            x, y, w, b if b is not None else d,
            residual if residual is not None else d,
            res_out if res_out is not None else d,
            rowscale if rowscale is not None else mean,
            w1 if w1 is not None else d, b1 if b1 is not None else d,
            y1 if y1 is not None else d, mean, rstd, *sync,
            x.stride(0), y.stride(0),
            residual.stride(0) if residual is not None else 0,
            res_out.stride(0) if res_out is not None else 0,
            M, N, *([rows_per_program] if sync else []), eps, float(dropout_p), int(seed),
            IS_RMS=rms, HAS_BIAS=b is not None, HAS_RES=residual is not None,
            STORE_RES_OUT=store_res, HAS_DROPOUT=dropout_p > 0,
            HAS_ROWSCALE=rowscale is not None, HAS_W1=w1 is not None,
            HAS_B1=b1 is not None, num_warps=warps, **consts)
        return dict(y=y, y1=y1, residual_out=res_out, mean=mean, rstd=rstd)

    def backward(self, dy, x, w, b, mean, rstd, *, rms=False, dresidual=None,
                 store_dresidual=False, dropout_p=0.0, seed=0, rowscale=None,
                 w1=None, b1=None, dy1=None):
        """x is the pre-norm input (residual_out when residual, dropout or
        rowscale were on). Returns dx, dw, db, dw1, db1, dresidual_in."""
        M, N = x.shape
        dx = _empty_like(x)
        dres_in = _empty_like(x) if store_dresidual else None
        plan = plan_backward(M, N, self.sms, self.tune_bwd, second_output=w1 is not None,
                             fp32=x.dtype == torch.float32, bf16=x.dtype == torch.bfloat16,
                             dx_options=(store_dresidual or dropout_p > 0
                                         or rowscale is not None))
        P = plan["programs"]
        f32 = dict(dtype=torch.float32, device=x.device)
        has_b, has_w1, has_b1 = b is not None, w1 is not None, b1 is not None
        # One [P, N] region of partial rows per gradient that is on (dw, db,
        # dw1, db1 in that order; 64-element aligned, as LayerNormFused.cpp),
        # all reduced by one launch; an off gradient's pointer is never written.
        on = [True, has_b, has_w1, has_b1]
        region = cdiv(P * N, 64) * 64
        workspace = _empty((max(1, sum(on)) * region,), **f32)
        slots = [sum(on[:i]) if on[i] else 0 for i in range(4)]
        parts = [workspace[k * region:k * region + P * N].view(P, N) for k in slots]
        d = x
        flags = dict(IS_RMS=rms, HAS_BIAS=has_b, HAS_DRES=dresidual is not None,
                     STORE_DRES_IN=store_dresidual, HAS_DROPOUT=dropout_p > 0,
                     HAS_ROWSCALE=rowscale is not None, HAS_W1=has_w1,
                     HAS_B1=has_b1)
        tail = [x.stride(0), dy.stride(0), dx.stride(0),
                dresidual.stride(0) if dresidual is not None else 0,
                dres_in.stride(0) if dres_in is not None else 0,
                M, N, plan["rows_per_program"], float(dropout_p), int(seed)]
        head = [x, w, b if has_b else d, dy, dx, w1 if has_w1 else d,
                dy1 if dy1 is not None else d,
                dresidual if dresidual is not None else d,
                dres_in if dres_in is not None else d,
                rowscale if rowscale is not None else mean, mean, rstd]
        if M > 0:
            if plan["variant"] == "coop":
                chunks = cdiv(N, plan["consts"]["BLOCK_N"])
                # The sums' 64-bit words, then the ticket (zeroed).
                words = torch.zeros((M * chunks * 2 + 1,), dtype=torch.int64,
                                    device=x.device)
                self.c._norm_bwd_coop[plan["grid"]](
                    *head, *parts, words[1:], words[:1].view(torch.int32), *tail,
                    num_warps=plan["num_warps"], CHUNKS_P2=next_pow2(chunks),
                    AHEAD=bool(self.tune_bwd.get("ahead", 1)), launch_cooperative_grid=True,
                    **plan["consts"], **flags)
            elif plan["variant"] in ("rows", "cols"):
                kernel = {"rows": self.k._norm_bwd, "cols": self.k._norm_bwd_cols}[
                    plan["variant"]]
                if plan["variant"] == "rows" and plan.get("pipelined"):
                    kernel = self.k._norm_bwd_pipelined
                kernel[plan["grid"]](
                    *head, *parts, *tail, num_warps=plan["num_warps"],
                    **plan["consts"], **flags)
            else:
                c1 = _empty((M,), **f32)
                c2 = _empty((M,), **f32)
                self.k._norm_bwd_row_stats[(M,)](
                    x, w, dy, w1 if has_w1 else d, dy1 if dy1 is not None else d,
                    mean, rstd, c1, c2, x.stride(0), dy.stride(0), M, N,
                    BLOCK_N=FWD_CHUNK, IS_RMS=rms, HAS_W1=has_w1, num_warps=8)
                self.k._norm_bwd_chunked[plan["grid"]](
                    *head, c1, c2, *parts, *tail, num_warps=plan["num_warps"],
                    **plan["consts"], **flags)
        else:
            workspace.zero_()
        outs = [_empty((N,), dtype=w.dtype, device=x.device) if o else None for o in on]
        given = [o for o in outs if o is not None]
        self.k._norm_bwd_reduce[(plan["reduce_grid"][0], len(given))](
            workspace, *(given + [given[0]] * (4 - len(given))), P, N, region,
            num_warps=4, **plan["reduce"])
        return dict(dx=dx, dw=outs[0], db=outs[1], dw1=outs[2], db1=outs[3],
                    dresidual_in=dres_in)


def reference(x, w, b, eps, dy=None, *, rms=False, residual=None,
              dropout_mask=None, dropout_p=0.0, rowscale=None, w1=None,
              b1=None, dy1=None, dresidual=None, stored_dtype=None):
    """fp64 PyTorch reference of the whole fused computation, by autograd.

    stored_dtype: the dtype residual_out is stored in, when the kernels
    store it: they normalise that rounded value (as unfused PyTorch would
    normalise `x + residual` computed in that dtype), so the reference does
    too (rounding passes the gradient straight through).

    With dy, also returns dx_floor / dresidual_in_floor: the absolute error
    fp32 arithmetic may leave in dx = rstd * (g - (xhat * c1 + c2)), a few
    fp32 ulps of its largest term. dx is a difference of those terms, which
    cancel completely when a row has (almost) no variance (N = 1: dx = 0
    exactly, while rstd = 1/sqrt(eps) ~ 316 scales the rounding of g), so an
    error relative to max |dx| alone cannot hold there."""
    xd = x.double().requires_grad_(dy is not None)
    ws = [t.double().requires_grad_(dy is not None) if t is not None else None
          for t in (w, b, w1, b1)]
    rd = (residual.double().requires_grad_(dy is not None)
          if residual is not None else None)
    h = xd
    if rowscale is not None:
        h = h * rowscale.double()[:, None]
    if dropout_mask is not None:
        h = torch.where(dropout_mask, h / (1 - dropout_p), torch.zeros_like(h))
    if rd is not None:
        h = h + rd
    if stored_dtype is not None and stored_dtype != torch.float64:
        h = h + (h.detach().to(stored_dtype).double() - h.detach())
    pre = h
    if rms:
        rstd = torch.rsqrt((h * h).mean(1, keepdim=True) + eps)
        xhat = h * rstd
        mean = None
    else:
        mean = h.mean(1, keepdim=True)
        var = ((h - mean) ** 2).mean(1, keepdim=True)
        rstd = torch.rsqrt(var + eps)
        xhat = (h - mean) * rstd
    y = xhat * ws[0] + (ws[1] if ws[1] is not None else 0)
    y1 = None
    if ws[2] is not None:
        y1 = xhat * ws[2] + (ws[3] if ws[3] is not None else 0)
    out = dict(y=y.detach(), y1=None if y1 is None else y1.detach(),
               residual_out=pre.detach(), rstd=rstd.detach().squeeze(1),
               mean=None if mean is None else mean.detach().squeeze(1))
    if dy is None:
        return out
    outs, grads = [y], [dy.double()]
    if y1 is not None:
        outs.append(y1)
        grads.append(dy1.double())
    if dresidual is not None:
        outs.append(pre)
        grads.append(dresidual.double())
    inputs = [xd] + [t for t in ws if t is not None] + ([rd] if rd is not None else [])
    g = torch.autograd.grad(outs, inputs, grads)
    out["dx"] = g[0]
    names = [n for n, t in zip(("dw", "db", "dw1", "db1"), ws) if t is not None]
    for n, t in zip(names, g[1:1 + len(names)]):
        out[n] = t
    if rd is not None:
        out["dresidual_in"] = g[-1]
    with torch.no_grad():
        gy = dy.double() * ws[0] + (dy1.double() * ws[2] if y1 is not None else 0)
        xh = xhat.detach()
        c1 = (xh * gy).mean(1, keepdim=True)
        c2 = 0 if rms else gy.mean(1, keepdim=True)
        terms = rstd.detach() * (gy.abs() + (xh * c1).abs() + abs(c2))
        out["dresidual_in_floor"] = FP32_FLOOR_ULPS * 2.0 ** -24 * terms.max().item()
        post = torch.ones_like(terms)
        if dropout_mask is not None:
            post = post * dropout_mask.double() / (1 - dropout_p)
        if rowscale is not None:
            post = post * rowscale.double()[:, None]
        out["dx_floor"] = FP32_FLOOR_ULPS * 2.0 ** -24 * (terms * post).max().item()
    return out


# fp32 ulps of dx's largest term allowed as absolute error (reference()).
FP32_FLOOR_ULPS = 32


def dropout_keep_mask(residual_out, residual):
    """Dropout's decisions read back from the forward's residual_out: a
    dropped element is exactly the residual (or 0 without one), since h + 0
    rounds to the value it came from; a kept one differs by ~|x| / (1 - p)."""
    base = residual if residual is not None else torch.zeros_like(residual_out)
    return residual_out != base


def tolerance(dtype):
    return {torch.float16: 2e-2, torch.bfloat16: 6e-2, torch.float32: 2e-4}[dtype]


def max_rel_err(got, want, floor=0.0, tol=None):
    """max |got - want| / (max |want| + 1e-6), in fp64. With an absolute
    error floor (reference()'s dx_floor), the denominator grows by floor /
    tol, so that the result is <= tol exactly when every error is within
    tol * (max |want| + 1e-6) + floor (plus half the output dtype's smallest
    subnormal when tol is given)."""
    if got.dtype.is_floating_point and tol:
        # Storage: below the smallest normal the spacing is absolute (fp16:
        # 2^-24), so a correctly rounded output may be half of it away.
        fi = torch.finfo(got.dtype)
        floor += 0.5 * fi.tiny * fi.eps
    g, w = got.double(), want.double()
    if not torch.isfinite(g).all():
        return math.inf
    extra = floor / tol if floor and tol else 0.0
    return ((g - w).abs().max() / (w.abs().max() + 1e-6 + extra)).item()
