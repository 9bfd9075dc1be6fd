"""What bench/matmul_bench.py and bench/attention_bench.py share: one
config of one compiler, checked against the reference, then timed."""
import statistics

import torch
from triton.testing import do_bench


def check_and_time(row, run, out, ref, flops, close, timing=True):
    """Runs `run` once with `out` poisoned, checks it with close(out, ref)
    -> bool, and if it holds (and `timing`) times it (do_bench, median ms)
    into `row` (ms, tflops); otherwise records the largest error. A failing
    config is a result, not a stop: an exception lands in row["error"]."""
    try:
        out.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        ok = bool(close(out, ref))
        row["correct"] = ok
        if not ok:
            row["max_abs_err"] = (out.float() - ref.float()).abs().nan_to_num(
                float("inf")).max().item()
        elif timing:
            ms = do_bench(run, warmup=25, rep=100)
            row["ms"] = ms
            row["tflops"] = flops / ms * 1e-9
    except Exception as e:
        row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    return row


def time_alternating(timed, flops, rounds):
    """Times each (row, run) of `timed` (the compilers' launches of one
    config, already checked) in `rounds` rounds whose order alternates, so
    that a drift of the GPU's clocks (a long matmul lowers them) falls on
    every compiler alike instead of on whichever runs second; each row gets
    the median round's ms and tflops, and the rounds' ms."""
    for r in range(rounds):
        for row, run in (timed if r % 2 == 0 else timed[::-1]):
            try:
                row.setdefault("rounds_ms", []).append(do_bench(run, warmup=25, rep=100))
            except Exception as e:
                row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    for row, _ in timed:
        if row.get("rounds_ms") and "error" not in row:
            row["ms"] = statistics.median(row["rounds_ms"])
            row["tflops"] = flops / row["ms"] * 1e-9
