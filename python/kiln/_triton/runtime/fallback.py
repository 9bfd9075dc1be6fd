"""KILN_FALLBACK=triton: a kernel Kiln cannot compile is handed to the real
Triton (when installed) and counted in the report. Off by default: then the
CompilationError with Kiln's FILE:LINE:COL message is raised."""
import os

__kiln__ = True


def enabled():
    return os.environ.get("KILN_FALLBACK", "").lower() == "triton"


def take(jit_fn, error):
    """A Fallback for `jit_fn`, or None (the caller re-raises `error`)."""
    if not enabled():
        return None
    from kiln import _realtriton
    real = _realtriton.load()
    if real is None:
        return None
    stats = jit_fn._stats
    if stats is not None:
        stats.backend = "triton"
        stats.reason = str(error)
    return Fallback(jit_fn, real, stats)


class Fallback:
    def __init__(self, jit_fn, real, stats):
        from kiln import _realtriton
        self.kernel = _realtriton.rejit(jit_fn, real)
        self.jit_fn = jit_fn
        self.stats = stats

    def launch(self, grid, values, num_warps, num_stages):
        if self.stats is not None:
            self.stats.launches += 1
        kwargs = dict(zip(self.jit_fn.arg_names, values))
        return self.kernel[grid](num_warps=num_warps, num_stages=num_stages,
                                 **kwargs)
