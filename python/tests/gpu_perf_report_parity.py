"""triton.testing.perf_report under the real Triton and under Kiln's drop-in
print the same table and write the same CSV (device machine: it needs the
real Triton and pandas; no kernel runs). Exit status 0 when equal.

    python3 python/tests/gpu_perf_report_parity.py
"""
import os
import subprocess
import sys
import tempfile

BENCH = r'''
import os, sys
import triton
import triton.testing

@triton.testing.perf_report([
    triton.testing.Benchmark(
        x_names=["M", "N", "K"], x_vals=[128 * i for i in range(2, 5)],
        line_arg="provider", line_vals=["a", "b"],
        line_names=["cuBLAS", "Triton"], styles=[("green", "-"), ("blue", "-")],
        ylabel="TFLOPS", plot_name="matmul-performance", args={}),
    triton.testing.Benchmark(
        x_names=["N"], x_vals=[256, 1024], line_arg="provider",
        line_vals=["x"], line_names=["Only"], ylabel="GB/s",
        plot_name="one-line", args={"scale": 3}),
])
def bench(provider, scale=1, **sizes):
    n = sizes.get("N", 1)
    if provider == "a":
        return n / 7.0, n / 9.0, n / 5.0
    return n * scale / 3.0

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
bench.run(print_data=True, save_path=out)
'''


def run(backend, tmp):
    script = os.path.join(tmp, "bench_%s.py" % backend)
    with open(script, "w") as f:
        f.write(BENCH)
    out = os.path.join(tmp, backend)
    cmd = [sys.executable, script, out]
    if backend == "kiln":
        cmd = [sys.executable, "-m", "kiln.run", script, out]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env=dict(os.environ, MPLBACKEND="Agg"))
    if r.returncode:
        sys.exit("%s failed:\n%s" % (backend, r.stderr))
    csvs = {name: open(os.path.join(out, name)).read()
            for name in sorted(os.listdir(out)) if name.endswith(".csv")}
    return r.stdout, csvs


def main():
    tmp = tempfile.mkdtemp()
    triton_out, triton_csv = run("triton", tmp)
    kiln_out, kiln_csv = run("kiln", tmp)
    print(kiln_out)
    same = triton_out == kiln_out and triton_csv == kiln_csv
    if not same:
        import difflib
        print("".join(difflib.unified_diff(
            triton_out.splitlines(True), kiln_out.splitlines(True),
            "triton", "kiln")))
        for name in sorted(set(triton_csv) | set(kiln_csv)):
            if triton_csv.get(name) != kiln_csv.get(name):
                print("%s differs:\n--- triton\n%s--- kiln\n%s" % (
                    name, triton_csv.get(name), kiln_csv.get(name)))
    print("perf_report parity: %s" % ("equal" if same else "DIFFERENT"))
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
