"""What `kernel.warmup(...)` returns (Triton's CompiledKernel, as far as host
code reads it): the PTX, metadata, and register counts from ptxas when one
is found. Split from jit.py, which launches."""
import functools
import os


class _Metadata:
    def __init__(self, info, num_warps, num_stages):
        self.num_warps = info.get("num_warps", num_warps)
        self.num_stages = num_stages
        self.num_ctas = 1
        self.shared = info.get("shared_bytes", info.get("sharedBytes", 0))
        self.name = info.get("name")


class CompiledKernel:
    """What `kernel.warmup(...)` returns in Triton, as far as host code
    reads it, and `compiled[grid](*all_args)` launches it. n_regs / n_spills
    are ptxas's (-v) when a ptxas is found (CUDA toolkit or Triton's), else
    a bound from the PTX's register declarations; metadata.shared counts the PTX's
    shared arrays and the dynamic shared memory, at least 1 byte (scripts
    divide by it, as Triton's kernels always reserve some)."""

    def __init__(self, jit_fn, compiled, num_warps, num_stages,
                 constexprs=None):
        self._jit_fn = jit_fn
        # The specialization's constexpr values, for a launch that passes
        # the runtime arguments only.
        self._constexprs = dict(constexprs or {})
        self._runtime = None  # runtime parameter names, at the first launch
        self.asm = {"ptx": compiled.ptx}
        self.metadata = _Metadata(compiled.info, num_warps, num_stages)
        self.metadata.shared = max(1, self.metadata.shared +
                                   _ptx_static_shared(compiled.ptx))
        self._arch = compiled.info.get("arch", "sm_90")
        self._regs = None
        self.name = self.metadata.name

    def _registers(self):
        # ptxas runs at the first read only: a launch that returns this
        # object (FlagGems' LibEntry launches through it) never pays for it.
        if self._regs is None:
            ptx = self.asm["ptx"]
            self._regs = _ptxas_registers(ptx, self._arch, self.metadata.name) or (
                _ptx_registers(ptx), 0)
        return self._regs

    @property
    def n_regs(self):
        return self._registers()[0]

    @property
    def n_spills(self):
        return self._registers()[1]

    def _init_handles(self):
        pass

    def __getitem__(self, grid):
        return functools.partial(self._launch, grid)

    def _launch(self, grid, *args, stream=None, **kwargs):
        """compiled[grid](*args): the launch on the current stream, or on
        `stream` (a raw CUstream handle, as Triton's launcher takes it)."""
        if stream is not None:
            import torch
            current = torch.cuda.current_stream().cuda_stream
            if stream != current:
                with torch.cuda.stream(torch.cuda.ExternalStream(stream)):
                    return self._launch(grid, *args, **kwargs)
        jit_fn = self._jit_fn
        if self._runtime is None:  # what every launch of it reuses
            self._runtime = [p.name for p in jit_fn.params
                             if not p.is_constexpr]
            self._launch_options = {
                o: getattr(self.metadata, o)
                for o in ("num_warps", "num_stages")
                if o not in jit_fn.arg_names}
        # Triton's launchers take every argument, constexprs included (3.3
        # on); older ones and libraries written for them (FlagGems'
        # LibEntry) pass the runtime arguments only: those are matched to the
        # runtime parameters and the constexprs are this specialization's.
        if len(args) == len(self._runtime) != len(jit_fn.params) and \
                not kwargs:
            kwargs = dict(self._constexprs, **dict(zip(self._runtime, args)))
            args = ()
        return jit_fn._run(grid, *args, **dict(self._launch_options, **kwargs))


class LaunchedKernel:
    """What a launch returns (Triton returns the CompiledKernel it ran): one
    per specialization, built at its first launch and returned by every
    launch after it; the CompiledKernel itself (PTX from libkiln's compile
    cache, ptxas's register counts) is made at the first attribute read, so
    launches that discard the result pay one return."""

    def __init__(self, make):
        self._make = make
        self._compiled = None

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = self._make()
        return getattr(self._compiled, name)

    def __getitem__(self, grid):
        if self._compiled is None:
            self._compiled = self._make()
        return self._compiled[grid]


def _ptx_static_shared(ptx):
    import re
    return sum(int(n) for n in re.findall(
        r"\.shared\s+(?:\.align\s+\d+\s+)?\.b8\s+\w+\[(\d+)\]", ptx))


def _find_ptxas():
    """ptxas of $TRITON_PTXAS_PATH, $CUDA_HOME, /usr/local/cuda or an
    installed Triton (its backends/nvidia/bin), or None."""
    import importlib.machinery
    import shutil
    candidates = [os.environ.get("TRITON_PTXAS_PATH"),
                  os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                               "bin", "ptxas")]
    spec = importlib.machinery.PathFinder.find_spec("triton")
    for root in (spec.submodule_search_locations or []) if spec else []:
        candidates.append(os.path.join(root, "backends", "nvidia", "bin",
                                       "ptxas"))
    candidates.append(shutil.which("ptxas"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


_ptxas = []


def _ptxas_registers(ptx, arch, name):
    """(registers, spill bytes) that ptxas allocates for the kernel, or None
    when no ptxas is found or it fails."""
    import re
    import subprocess
    import tempfile
    if not _ptxas:
        _ptxas.append(_find_ptxas())
    if _ptxas[0] is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        try:
            r = subprocess.run([_ptxas[0], "-v", "--gpu-name", arch, "-o",
                                os.devnull, path], capture_output=True,
                               text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
    if r.returncode != 0:
        return None
    regs = re.search(r"Used (\d+) registers", r.stderr + r.stdout)
    spills = re.search(r"(\d+) bytes spill stores", r.stderr + r.stdout)
    if not regs:
        return None
    return int(regs.group(1)), int(spills.group(1)) if spills else 0


def _ptx_registers(ptx):
    """32-bit registers the PTX declares, capped at 255 (a bound on what
    ptxas allocates, which is what occupancy math needs)."""
    import re
    total = 0
    for kind, count in re.findall(r"\.reg\s+\.(\w+)\s+%\w+<(\d+)>", ptx):
        width = 2 if kind.endswith("64") else 1
        if kind != "pred":
            total += int(count) * width
    return max(16, min(255, total))
