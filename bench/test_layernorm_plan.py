"""layernorm_host.py's plan_forward / plan_backward (the Python copy of
kiln::rt::planNorm the benchmarks launch with) against the C++ rules
themselves, printed by `ln-bench --plan`: every dtype, option set and a grid
of shapes around the rules' boundaries (rows per SM, BLOCK_N steps, the
cooperative and chunked variants). No GPU and no torch.

    LN_BENCH=build/bin/ln-bench python3 -m unittest -v test_layernorm_plan
"""
import json
import os
import subprocess
import unittest

import layernorm_host as host

LN_BENCH = os.environ.get("LN_BENCH", "")
SMS = (132, 78)
ROWS = (1, 3, 100, 4096, 8448, 8449, 65536)
COLUMNS = (1, 100, 512, 777, 1024, 2048, 3000, 4096, 6000, 8192, 16384, 20000,
           32768, 65537, 100000, 131072, 262144)

# Option sets of Plan.cpp: (lean, dx_options, second_output) for the Python
# plans.
OPTIONS = {
    "plain": (True, False, False),
    "store_residual": (False, False, False),
    "residual": (False, True, False),
    "second_output": (False, False, True),
}


def cpp_plans(sms):
    shapes = ",".join("%dx%d" % (m, n) for m in ROWS for n in COLUMNS)
    done = subprocess.run([LN_BENCH, "--plan", "--sms", str(sms),
                           "--dtypes", "fp16,bf16,fp32", "--shapes", shapes],
                          capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise AssertionError("ln-bench --plan failed (%d): %s" %
                             (done.returncode, done.stderr))
    return [json.loads(line) for line in done.stdout.splitlines()]


def python_forward(M, N, dtype, lean, sms):
    name, consts, warps, grid = host.plan_forward(
        M, N, None, sms, lean=lean, fp32=dtype == "fp32", bf16=dtype == "bf16")
    return dict(kernel=name, BLOCK_N=consts["BLOCK_N"], ROWS=consts["ROWS"],
                num_warps=warps, grid=grid[0],
                rows_per_program=consts.get("rows_per_program", 0))


def python_backward(M, N, dtype, dx, second, sms):
    b = host.plan_backward(M, N, sms, None, second_output=second,
                           fp32=dtype == "fp32", dx_options=dx,
                           bf16=dtype == "bf16")
    grid = b["grid"]
    chunks = {"rows": lambda: 1, "cols": lambda: grid[0], "chunked": lambda: grid[1],
              "coop": lambda: grid[0] // max(1, b["programs"])}[b["variant"]]()
    return dict(variant=b["variant"], pipelined=b["pipelined"],
                BLOCK_N=b["consts"]["BLOCK_N"], ROWS=b["consts"]["ROWS"],
                num_warps=b["num_warps"], programs=b["programs"],
                column_chunks=chunks, rows_per_program=b["rows_per_program"],
                reduce_block_n=b["reduce"]["BLOCK_N"],
                reduce_grid=b["reduce_grid"][0])


@unittest.skipUnless(os.path.exists(LN_BENCH), "LN_BENCH does not name ln-bench")
class PlanMirrorTest(unittest.TestCase):
    def test_python_plans_equal_the_cpp_plans(self):
        compared = 0
        for sms in SMS:
            for line in cpp_plans(sms):
                where = "%s %dx%d %s on %d SMs" % (line["dtype"], line["M"], line["N"],
                                                   line["options"], sms)
                self.assertNotIn("error", line, where)
                lean, dx, second = OPTIONS[line["options"]]
                fwd = python_forward(line["M"], line["N"], line["dtype"], lean, sms)
                want = dict(line["forward"])
                want.pop("chunks")
                self.assertEqual(fwd, want, "forward, " + where)
                bwd = python_backward(line["M"], line["N"], line["dtype"], dx, second, sms)
                self.assertEqual(bwd, line["backward"], "backward, " + where)
                compared += 1
        self.assertEqual(compared, len(SMS) * 3 * len(ROWS) * len(COLUMNS) * len(OPTIONS))


if __name__ == "__main__":
    unittest.main()
