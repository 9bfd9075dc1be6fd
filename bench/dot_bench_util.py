"""What bench/matmul_bench.py and bench/attention_bench.py share: one
config of one compiler, checked against the reference, then timed."""
import torch
from triton.testing import do_bench


def check_and_time(row, run, out, ref, flops, close):
    """Runs `run` once with `out` poisoned, checks it with close(out, ref)
    -> bool, and if it holds times it (do_bench, median ms) into `row`
    (ms, tflops); otherwise records the largest error. A failing config is a
    result, not a stop: an exception lands in row["error"]."""
    try:
        out.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        ok = bool(close(out, ref))
        row["correct"] = ok
        if not ok:
            row["max_abs_err"] = (out.float() - ref.float()).abs().nan_to_num(
                float("inf")).max().item()
        else:
            ms = do_bench(run, warmup=25, rep=100)
            row["ms"] = ms
            row["tflops"] = flops / ms * 1e-9
    except Exception as e:
        row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    return row
