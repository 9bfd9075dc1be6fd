"""Device assertions under Triton 3.6 and Kiln (run on the GPU machine):

    python3 test/gpu/device_assert_check.py

Each run is a child process (a failed device assert poisons the CUDA context):
  * debug build (TRITON_DEBUG=1 / KILN_DEBUG=1, or @triton.jit(debug=True)) and an input
    with a non-positive element: the process must fail, and its output must carry the
    CUDA assert line with this .py file:line of the assertion and the message, as Triton's;
  * the same kernel without debug must run through and compute Out = 2 * X.
Prints one line per case and exits non-zero when any case fails.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "assert_kernels.py")

CHILD = r"""
import importlib.util, os, sys
import torch
sys.path.insert(0, os.path.join({root!r}, "python"))
who, kernel, bad = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
if who == "triton":
    spec = importlib.util.spec_from_file_location("assert_kernels", {path!r})
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
else:
    import kiln
    mod = kiln.jit({path!r})
x = torch.arange(1, 101, dtype=torch.int32, device="cuda")
if bad:
    x[37] = -5
out = torch.zeros(100, dtype=torch.int32, device="cuda")
getattr(mod, kernel)[(1,)](x, out, 100, BLOCK=128)
torch.cuda.synchronize()
assert torch.equal(out, x * 2), "wrong output"
print("RAN-THROUGH")
"""


def line_of(text):
    with open(KERNELS) as f:
        for i, l in enumerate(f, 1):
            if text in l:
                return i
    raise RuntimeError(text)


def run(who, kernel, bad, debug):
    env = dict(os.environ)
    for var in ("TRITON_DEBUG", "KILN_DEBUG"):
        env.pop(var, None)
    if debug:
        env["TRITON_DEBUG" if who == "triton" else "KILN_DEBUG"] = "1"
    code = CHILD.format(root=os.path.dirname(os.path.dirname(HERE)), path=KERNELS)
    p = subprocess.run([sys.executable, "-c", code, who, kernel, "1" if bad else "0"],
                       capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout + p.stderr


def main():
    cases = [
        ("assert_positive", True, 'tl.device_assert(x > 0, "x must be positive"', "x must be positive"),
        ("assert_stmt", True, 'assert tl.min(x, axis=0) > 0', "min(x) must be positive"),
        ("assert_jit_debug", False, "x must be positive (jit debug)", "x must be positive (jit debug)"),
    ]
    failures = 0
    for kernel, needs_env, src, msg in cases:
        line = line_of(src)
        want = re.compile(re.escape(f"assert_kernels.py:{line}") + r".*" + re.escape(msg))
        for who in ("triton", "kiln"):
            rc, out = run(who, kernel, bad=True, debug=needs_env)
            ok = rc != 0 and want.search(out) is not None and "RAN-THROUGH" not in out
            failures += not ok
            print(f"{'PASS' if ok else 'FAIL'} {who} {kernel} fires at assert_kernels.py:{line}"
                  + ("" if ok else f" (rc={rc})\n" + out[-2000:]))
            if needs_env:
                rc, out = run(who, kernel, bad=True, debug=False)
                ok = rc == 0 and "RAN-THROUGH" in out
                failures += not ok
                print(f"{'PASS' if ok else 'FAIL'} {who} {kernel} without debug runs through"
                      + ("" if ok else f" (rc={rc})\n" + out[-2000:]))
            rc, out = run(who, kernel, bad=False, debug=True)
            ok = rc == 0 and "RAN-THROUGH" in out
            failures += not ok
            print(f"{'PASS' if ok else 'FAIL'} {who} {kernel} with debug, valid input, runs through"
                  + ("" if ok else f" (rc={rc})\n" + out[-2000:]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
