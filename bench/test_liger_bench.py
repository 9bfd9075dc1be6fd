"""liger_bench.py's comparison of a Triton run and a Kiln run (no GPU, no torch)."""
import contextlib
import io
import json
import os
import tempfile
import unittest

import liger_bench


def rows(backend, fwd, full, checksum, kernels, error=None):
    r = {"op": "swiglu", "backend": backend, "fwd_us": fwd, "full_us": full,
         "checksum": checksum, "kernels": kernels}
    if error:
        r = {"op": "swiglu", "backend": backend, "error": error}
    return [r]


def compare_output(compare, *runs):
    """What `compare` prints for the JSON rows `runs` (Triton / Kiln in pairs), written to
    files as the benches write them (also used by test_lightllm_bench.py)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, data in enumerate(runs):
            p = os.path.join(d, f"{i}.json")
            with open(p, "w") as f:
                json.dump(data, f)
            paths.append(p)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            compare(paths)
        return out.getvalue()


class CompareTest(unittest.TestCase):
    def compare(self, *runs):
        return compare_output(liger_bench.compare, *runs)

    def test_kernel_ratios_and_geomean(self):
        tri = rows("triton", 100.0, 400.0, 12.5,
                   {"_swiglu_forward_kernel": [160.0, 1], "void at::fill": [1.0, 1]})
        kiln = rows("kiln", 80.0, 400.0, 12.5,
                    {"_swiglu_forward_kernel": [200.0, 1], "void at::fill": [1.0, 1]})
        text = self.compare(tri, kiln)
        self.assertIn("0.800", text)  # fwd 80 / 100
        self.assertIn("same", text)
        line = next(l for l in text.splitlines() if "_swiglu_forward_kernel" in l)
        self.assertTrue(line.rstrip().endswith("1.250"), line)
        self.assertNotIn("at::fill", text)  # torch's own kernels are not compared
        self.assertIn("geomean fwd_us: 0.800 over 1 ops", text)

    def test_pairs_average_geometrically_and_checksums_must_agree(self):
        text = self.compare(rows("triton", 100.0, 100.0, 1.0, {}),
                            rows("kiln", 50.0, 100.0, 1.0, {}),
                            rows("triton", 100.0, 100.0, 1.0, {}),
                            rows("kiln", 200.0, 100.0, 2.0, {}))
        self.assertIn("geomean fwd_us: 1.000 over 1 ops", text)
        self.assertIn("DIFFERS", text)

    def test_errors_are_shown(self):
        text = self.compare(rows("triton", 1.0, 1.0, 1.0, {}),
                            rows("kiln", 0, 0, 0, {}, error="CompilationError: x.py:3:4: boom"))
        self.assertIn("CompilationError: x.py:3:4: boom", text)


if __name__ == "__main__":
    unittest.main()
