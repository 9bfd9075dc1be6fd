"""attorch's own tests/, unmodified, on a fixed sample, under the real
Triton and under Kiln's drop-in, each from a cold cache (device only).

    python3 test/gpu/attorch/run_sample.py [--attorch DIR] [--stride N]
        [--offset K] [--timeout S] [--only triton|kiln] [--files tests/test_x.py ...]
        [--keep DIR]
        [-- extra pytest args]

DIR defaults to /work/main/.ext/attorch (git-ignored; COMMIT names the
commit). The sample is sample_plugin.py's: every test function, every N-th
of its parametrizations (default N = 97). Both runs use fresh
TRITON_CACHE_DIR / KILN_CACHE_DIR, KILN_FALLBACK unset (no fallback), and the
same node ids. Kiln's run is `python -m kiln.run --report -m pytest ...`
(PYTHONPATH must reach python/kiln: scripts/kiln-pytest-env.sh). Prints per
backend: passed / failed / errors / skipped of the sample, wall time, and
for Kiln the kernels launched with their compile ms (from --report), the
fraction of kernels that ran, and each failing test with its first error
line. Exit status 0 whatever the results (it is a measurement).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))


def run(backend, args):
    junit = tempfile.mktemp(suffix="-%s.xml" % backend)
    env = dict(os.environ,
               TRITON_CACHE_DIR=tempfile.mkdtemp(prefix="triton-cache-"),
               KILN_CACHE_DIR=tempfile.mkdtemp(prefix="kiln-cache-"),
               PYTHONPATH=os.pathsep.join(
                   [HERE] + [p for p in os.environ.get("PYTHONPATH", "")
                             .split(os.pathsep) if p]),
               PYTHONDONTWRITEBYTECODE="1",
               # Cold means cold: no cubins from the driver's JIT cache
               # (~/.nv/ComputeCache) of an earlier run either.
               CUDA_CACHE_DISABLE="1")
    # A library's own caches (FlagGems' FLAGGEMS_CACHE_DIR: generated code
    # and tuned configs), fresh per backend too.
    for var in args.fresh_dir or ():
        env[var] = tempfile.mkdtemp(prefix=var.lower() + "-")
    env.pop("KILN_FALLBACK", None)
    # Per-test outcomes and failure messages, written as each test ends
    # (sample_plugin.py); in the kept directory when there is one.
    where = args.keep or tempfile.mkdtemp()
    os.makedirs(where, exist_ok=True)
    for kind in ("times", "failures"):
        path = os.path.join(where, "%s.%s" % (backend, kind))
        if os.path.exists(path):
            os.remove(path)
        env["SAMPLE_" + kind.upper()] = path
    # -v: one line per test as it ends, so a run cut by the timeout still
    # shows what passed (junit XML is written only at the end).
    pytest_args = ["-m", "pytest", "-p", "sample_plugin", "-v",
                   "-p", "no:cacheprovider",
                   "--sample-stride", str(args.stride),
                   "--sample-offset", str(args.offset),
                   "--junitxml", junit] + (args.files or ["tests/"]) + args.extra
    cmd = [sys.executable] + pytest_args
    if backend == "kiln":
        cmd = [sys.executable, "-m", "kiln.run", "--report"] + pytest_args
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, cwd=args.attorch, env=env, text=True,
                           capture_output=True, timeout=args.timeout)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = (e.stdout or b"").decode(errors="replace") \
            if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr or b"").decode(errors="replace") \
            if isinstance(e.stderr, bytes) else (e.stderr or "")
    wall = time.perf_counter() - t0
    return rc, wall, out, err, junit, env["SAMPLE_TIMES"]


def junit_counts(path):
    counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    failures = []
    if not os.path.exists(path):
        return counts, failures
    for case in ET.parse(path).getroot().iter("testcase"):
        name = "%s::%s" % (case.get("classname"), case.get("name"))
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            counts["failed" if bad.tag == "failure" else "error"] += 1
            msg = (bad.get("message") or bad.text or "").strip()
            failures.append((name, msg.splitlines()[0][:200] if msg else ""))
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    return counts, failures


def times_counts(path):
    """Counts from the plugin's SAMPLE_TIMES file ("<s> <outcome> <node id>"
    per finished test): for a run the timeout cut before the junit XML was
    written."""
    counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    failures = []
    if not os.path.exists(path):
        return counts, failures
    for line in open(path):
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) != 3 or parts[1] not in counts:
            continue
        counts[parts[1]] += 1
        if parts[1] in ("failed", "error"):
            failures.append((parts[2], "(cut by the timeout: message in "
                                       "the .failures file)"))
    return counts, failures


def kiln_kernels(stderr):
    """(name, backend, compile_ms, launches) rows of kiln.run --report."""
    rows = []
    for line in stderr.splitlines():
        m = re.match(r"(\S+)\s+(kiln|triton)\s+([\d.]+)\s+(\d+)\s+\S", line)
        if m:
            rows.append((m.group(1), m.group(2), float(m.group(3)),
                         int(m.group(4))))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attorch", "--root", dest="attorch", default="/work/main/.ext/attorch",
                    help="the library's tree (attorch, or any other with a tests directory: "
                         "Liger-Kernel via test/gpu/run_liger.sh)")
    ap.add_argument("--stride", type=int, default=97)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--only", choices=["triton", "kiln"])
    ap.add_argument("--fresh-dir", action="append", metavar="VAR",
                    help="an environment variable naming a cache directory "
                         "of the library: a fresh one per backend")
    ap.add_argument("--files", nargs="+", metavar="TEST_FILE",
                    help="run only these of attorch's test files (tests/test_x.py): "
                         "the sample split over device calls; default all of tests/")
    ap.add_argument("--keep", metavar="DIR",
                    help="copy each backend's junit XML (per-test times) and "
                         "stderr here")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    commit = open(os.path.join(args.attorch, "COMMIT")).read().split()[0] \
        if os.path.exists(os.path.join(args.attorch, "COMMIT")) else "?"
    print("attorch %s, sample stride %d offset %d" % (commit, args.stride,
                                                       args.offset))
    summary = {}
    for backend in ("triton", "kiln"):
        if args.only and backend != args.only:
            continue
        rc, wall, out, err, junit, times = run(backend, args)
        counts, failures = junit_counts(junit)
        if not os.path.exists(junit):
            counts, failures = times_counts(times)
            print("   (no junit XML: counts from the .times file)")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            if os.path.exists(junit):
                shutil.copy(junit, os.path.join(args.keep,
                                                "%s.xml" % backend))
            for name, text in (("stderr", err), ("stdout", out)):
                with open(os.path.join(args.keep, "%s.%s" % (backend, name)),
                          "w") as f:
                    f.write(text)
        total = sum(counts.values())
        ran = counts["passed"] + counts["failed"] + counts["error"]
        summary[backend] = (counts, wall)
        print("\n== %s: exit %s, wall %.1f s" % (backend, rc, wall))
        print("   %d tests: %d passed, %d failed, %d errors, %d skipped "
              "(pass fraction of those that ran: %.1f%%)" % (
                  total, counts["passed"], counts["failed"], counts["error"],
                  counts["skipped"], 100.0 * counts["passed"] / max(1, ran)))
        if backend == "kiln":
            rows = kiln_kernels(err)
            ran_ok = [r for r in rows if r[1] == "kiln" and r[3] > 0]
            print("   kernels: %d used, %d launched on Kiln (%.1f%%); "
                  "compile ms median %.1f, max %.1f" % (
                      len(rows), len(ran_ok),
                      100.0 * len(ran_ok) / max(1, len(rows)),
                      sorted(r[2] for r in ran_ok)[len(ran_ok) // 2]
                      if ran_ok else 0.0,
                      max((r[2] for r in ran_ok), default=0.0)))
            for r in rows:
                if r not in ran_ok:
                    print("   kernel not run: %s (%s, %d launches)" % (
                        r[0], r[1], r[3]))
        for name, msg in failures:
            print("   FAIL %s: %s" % (name, msg))
        if rc not in (0, 1):
            print("   stderr tail:\n" + "\n".join(err.splitlines()[-15:]))
    if "triton" in summary and "kiln" in summary:
        tw, kw = summary["triton"][1], summary["kiln"][1]
        print("\nwall time: triton %.1f s, kiln %.1f s (kiln/triton = %.2f)"
              % (tw, kw, kw / max(tw, 1e-9)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
