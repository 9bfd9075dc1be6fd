"""The official Triton tutorials, unmodified, under the real Triton and under
Kiln's drop-in (`python -m kiln.run`), each from a cold cache (device only).

    python3 test/gpu/run_triton_tutorials.py [DIR] [--only 01,02,05]
        [--pytest 06="-k EXPR"] [--keep OUTDIR] [--timeout S]
        [--backends kiln]

DIR (default /work/main/.ext/triton-tutorials, git-ignored, see its COMMIT
file) holds the fetched tutorial files (01-vector-add.py,
02-fused-softmax.py, 05-layer-norm.py, ...). Each script runs its own
correctness checks (asserts / allclose) and benchmarks; a run passes when it
exits 0. Prints one row per tutorial and backend (exit status, wall time,
the last line of its output) and, for failures, the tail of stderr. Plots
are off (MPLBACKEND=Agg). `--pytest NN=ARGS` runs tutorial NN's own
pytest tests instead of the script (`python -m pytest -q FILE ARGS`; the
fused-attention tutorial's script is mostly a benchmark); `--keep OUTDIR`
writes each run's stdout and stderr there (NN.backend.out / .err) and, per
tutorial, NN.compare.txt (with both backends): the lines of stdout that differ between the two
backends (benchmark tables are timings and differ; correctness lines must
not). PYTHONPATH must reach python/kiln (the device
bundle's scripts/kiln-pytest-env.sh sets it). `--backends kiln` runs one
backend only (a re-check of Kiln after a change).
"""
import difflib
import os
import shlex
import subprocess
import sys
import tempfile
import time

DEFAULT_DIR = "/work/main/.ext/triton-tutorials"


def run(backend, path, timeout, pytest_args=None):
    env = dict(os.environ, MPLBACKEND="Agg",
               TRITON_CACHE_DIR=tempfile.mkdtemp(),
               KILN_CACHE_DIR=tempfile.mkdtemp())
    target = [path] if pytest_args is None else \
        ["-m", "pytest", "-q", "-p", "no:cacheprovider", path] + pytest_args
    cmd = [sys.executable] + target
    if backend == "kiln":
        cmd = [sys.executable, "-m", "kiln.run", "--report"] + target
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env,
                           timeout=timeout, cwd=os.path.dirname(path))
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or "", e.stderr or ""
        out = out if isinstance(out, str) else out.decode(errors="replace")
        err = err if isinstance(err, str) else err.decode(errors="replace")
    return rc, time.perf_counter() - t0, out, err


def main(argv):
    directory = DEFAULT_DIR
    only = None
    timeout = 600
    keep = None
    pytest_runs = {}
    backends = ("triton", "kiln")
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--only":
            only = args.pop(0).split(",")
        elif a == "--keep":
            keep = args.pop(0)
            os.makedirs(keep, exist_ok=True)
        elif a == "--pytest":
            number, _, rest = args.pop(0).partition("=")
            pytest_runs[number] = shlex.split(rest)
        elif a == "--timeout":
            timeout = float(args.pop(0))
        elif a == "--backends":
            backends = tuple(args.pop(0).split(","))
            unknown = set(backends) - {"triton", "kiln"}
            if unknown:
                print("--backends: unknown %s (triton, kiln)" %
                      ", ".join(sorted(unknown)))
                return 2
        else:
            directory = a
    files = sorted(f for f in os.listdir(directory) if f.endswith(".py"))
    if only:
        files = [f for f in files if f.split("-")[0] in only]
    if not files:
        print("no tutorials in %s" % directory)
        return 1
    failed = 0
    print("%-28s %-7s %8s %9s  %s" % ("tutorial", "backend", "status",
                                      "wall s", "last output line"))
    for f in files:
        path = os.path.join(directory, f)
        number = f.split("-")[0]
        outs = {}
        for backend in backends:
            rc, wall, out, err = run(backend, path, timeout,
                                     pytest_runs.get(number))
            outs[backend] = out
            if keep:
                for ext, text in (("out", out), ("err", err)):
                    with open(os.path.join(keep, "%s.%s.%s" % (
                            number, backend, ext)), "w") as fh:
                        fh.write(text)
            last = (out.strip().splitlines() or [""])[-1][:60]
            print("%-28s %-7s %8s %9.1f  %s" % (f, backend, rc, wall, last))
            if backend == "kiln":
                report = [l for l in err.splitlines()
                          if l.startswith(("kiln report", "kiln ran"))]
                for line in report:
                    print("    " + line)
            if rc != 0:
                failed += 1
                tail = "\n".join(err.strip().splitlines()[-15:])
                print("    stderr tail:\n" + "\n".join(
                    "      " + l for l in tail.splitlines()))
        if keep and len(outs) == 2:
            diff = difflib.unified_diff(
                outs["triton"].splitlines(), outs["kiln"].splitlines(),
                "triton", "kiln", lineterm="", n=0)
            with open(os.path.join(keep, number + ".compare.txt"), "w") as fh:
                fh.write("\n".join(diff) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
