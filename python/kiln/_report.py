"""What `python -m kiln.run --report` prints at exit: every kernel launched,
whether Kiln or the fallback (real Triton) ran it, its compile ms, its
launch count and, for autotuned kernels, the keys tuned and the wall time
spent building configs ahead and timing them. Counting is on only with the
report (KILN_REPORT=1), so the hit path stays one dict lookup and one call
otherwise."""
import os
import sys

_kernels = []


class KernelStats:
    __slots__ = ("name", "file", "backend", "compile_ms", "launches",
                 "reason", "tuned_keys", "tune_build_ms", "tune_bench_ms")

    def __init__(self, name, file):
        self.name = name
        self.file = file
        self.backend = "kiln"
        self.compile_ms = 0.0
        self.launches = 0
        self.reason = None
        self.tuned_keys = 0
        self.tune_build_ms = 0.0   # wall time of the parallel build-ahead
        self.tune_bench_ms = 0.0   # wall time of timing the configs


def counting():
    return os.environ.get("KILN_REPORT", "") not in ("", "0")


def register(jit_fn):
    stats = KernelStats(jit_fn.__name__, jit_fn._file)
    _kernels.append(stats)
    return stats


def kernels():
    return list(_kernels)


def format_report():
    lines = ["kiln report: %d kernel(s)" % len(_kernels)]
    header = "%-32s %-8s %12s %10s  %s" % ("kernel", "ran on", "compile ms",
                                           "launches", "file")
    lines.append(header)
    for s in _kernels:
        lines.append("%-32s %-8s %12.1f %10d  %s" % (
            s.name, s.backend, s.compile_ms, s.launches, s.file or "?"))
        if s.reason:
            lines.append("    fallback reason: " +
                         s.reason.splitlines()[0])
        if s.tuned_keys:
            lines.append("    autotuned %d key(s): %.1f ms building configs"
                         " ahead, %.1f ms timing them" % (
                             s.tuned_keys, s.tune_build_ms, s.tune_bench_ms))
    fallbacks = sum(1 for s in _kernels if s.backend != "kiln")
    lines.append("kiln ran %d, the fallback ran %d" %
                 (len(_kernels) - fallbacks, fallbacks))
    return "\n".join(lines)


def print_report(stream=None):
    print(format_report(), file=stream or sys.stderr)
