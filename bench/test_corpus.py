"""Unit tests of the kernel corpus's pure-Python parts (no torch, no GPU).

    cd bench && python3 -m unittest -v test_corpus
"""
import ast
import contextlib
import io
import json
import os
import stat
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

import cases  # noqa: E402
import corpus_check  # noqa: E402
import corpus_run  # noqa: E402
import perf_report  # noqa: E402
from corpus_model import int_signature, next_pow2, row_warps  # noqa: E402


def kernel_defs(path):
    """{name: ast.FunctionDef} of the @triton.jit functions of a kernel file."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def is_constexpr(arg):
    return arg.annotation is not None and ast.unparse(arg.annotation) == "tl.constexpr"


def fake_record(case, shape, dtype, t_us, k_us, nbytes=1000, t_ok=True, k_ok=True):
    rec = {"id": f"{case}/{shape}/{dtype}", "case": case, "shape": shape, "dims": "n=4",
           "dtype": dtype, "bytes": nbytes,
           "triton": {"us": t_us, "correct": t_ok}, "kiln": {"us": k_us, "correct": k_ok}}
    return corpus_run.finish_record(rec)


class Corpus(unittest.TestCase):
    def test_size_and_unique_names(self):
        names = [c.name for c in cases.CASES]
        self.assertGreaterEqual(len(names), 24)
        self.assertEqual(len(names), len(set(names)))
        self.assertGreaterEqual(len({c.file for c in cases.CASES}), 6)

    def test_every_case_has_small_large_and_odd_shapes(self):
        for c in cases.CASES:
            self.assertEqual([s.label for s in c.shapes], ["small", "large", "odd"], c.name)

    def test_params_match_the_kernel_definition(self):
        for c in cases.CASES:
            defs = kernel_defs(c.path)
            self.assertIn(c.kernel, defs, c.name)
            fn = defs[c.kernel]
            self.assertEqual(len(fn.args.args), len(c.params), c.name)
            for a, p in zip(fn.args.args, c.params):
                self.assertEqual(is_constexpr(a), p.kind == "const", f"{c.name}: {a.arg}")
                if p.kind == "const":
                    self.assertEqual(a.arg, p.name, c.name)

    def test_kernel_files_hold_only_imports_and_jit_functions(self):
        files = {c.file for c in cases.CASES}
        listed = sorted(f for f in os.listdir(cases.os.path.dirname(cases.__file__))
                        if f.endswith(".py") and not f.endswith("cases.py"))
        self.assertEqual(sorted(files), listed)
        for f in files:
            with open(os.path.join(os.path.dirname(cases.__file__), f)) as fh:
                tree = ast.parse(fh.read())
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    self.assertEqual([ast.unparse(d) for d in node.decorator_list],
                                     ["triton.jit"], f"{f}: {node.name}")
                elif isinstance(node, ast.Expr):
                    self.assertIsInstance(node.value, ast.Constant)  # the docstring
                else:
                    self.assertIsInstance(node, (ast.Import, ast.ImportFrom), f)

    def test_outputs_are_pointer_params(self):
        for c in cases.CASES:
            ptrs = {p.name for p in c.params if p.kind == "ptr"}
            self.assertTrue(set(c.outputs) <= ptrs, c.name)
            self.assertTrue(set(c.outputs.values()) <= {"poison", "zero", "keep"}, c.name)
            self.assertTrue(set(c.tol) <= set(c.outputs), c.name)

    def test_launch_parameters_are_sane(self):
        for inst in cases.instances():
            grid = inst.grid(132)
            self.assertTrue(1 <= len(grid) <= 3 and all(isinstance(g, int) and g > 0 for g in grid),
                            inst.id)
            self.assertLessEqual(grid[1:], (65535,) * (len(grid) - 1), inst.id)
            nw = inst.num_warps()
            self.assertIn(nw, (1, 2, 4, 8, 16), inst.id)
            self.assertGreater(inst.bytes(), 0, inst.id)
            for k, v in inst.constexprs().items():
                if k.startswith("BLOCK") or k == "HALF":
                    self.assertEqual(v, next_pow2(v), f"{inst.id}: {k}")

    def test_coverage_of_the_brief(self):
        dtypes = {d for c in cases.CASES for d in c.dtypes}
        self.assertTrue({"i8", "i32", "fp16", "bf16", "fp32"} <= dtypes)
        text = ""
        for f in {c.file for c in cases.CASES}:
            with open(os.path.join(os.path.dirname(cases.__file__), f)) as fh:
                text += fh.read()
        for needle in ("tl.atomic_add", "program_id(2)", "while ", "tl.num_programs(0))",
                       "axis=0", "axis=1", "tl.static_range"):
            self.assertIn(needle, text)
        strides = {i.scalars().get("stride_x", i.scalars().get("stride")) for i in cases.instances()}
        self.assertTrue(any(s and s % 16 for s in strides))
        self.assertTrue(any(s and s % 16 == 0 for s in strides))

    def test_instances_filter_and_quick(self):
        all_ = cases.instances()
        self.assertEqual(len({i.id for i in all_}), len(all_))
        quick = cases.instances(quick=True)
        self.assertTrue(all(i.shape.label == "small" for i in quick))
        self.assertEqual(len(quick), sum(len(c.dtypes) for c in cases.CASES))
        soft = cases.instances("softmax_row_kernel/odd")
        self.assertEqual([i.id for i in soft], ["softmax_row_kernel/odd/fp16",
                                                "softmax_row_kernel/odd/bf16",
                                                "softmax_row_kernel/odd/fp32"])
        self.assertEqual(cases.instances("no-such-case"), [])

    def test_importing_cases_does_not_import_torch_or_triton(self):
        code = ("import sys; sys.path.insert(0, 'corpus'); import cases, corpus_run; "
                "print(sorted(m for m in ('torch', 'triton', 'numpy') if m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True,
                             text=True, check=True).stdout
        self.assertEqual(out.strip(), "[]")


class Signatures(unittest.TestCase):
    def test_int_signature(self):
        self.assertEqual(int_signature(4096), "i32:16")
        self.assertEqual(int_signature(0), "i32:16")
        self.assertEqual(int_signature(1003), "i32")
        self.assertEqual(int_signature(-100), "i32")
        self.assertEqual(int_signature(2**31 - 1), "i32")
        self.assertEqual(int_signature(2**31), "i64:16")
        self.assertEqual(int_signature(-2**31 - 1), "i64")
        with self.assertRaises(TypeError):
            int_signature(1.5)

    def test_row_warps(self):
        self.assertEqual(row_warps(128), 1)
        self.assertEqual(row_warps(1024), 2)
        self.assertEqual(row_warps(4096), 8)
        self.assertEqual(row_warps(65536), 16)

    def _inst(self, name, label, dtype):
        (inst,) = cases.instances(f"{name}/{label}/{dtype}")
        return inst

    def test_vector_case(self):
        i = self._inst("silu_kernel", "odd", "bf16")
        self.assertEqual(i.signature(), ["*bf16:16", "*bf16:16", "i32"])
        self.assertEqual(i.constexprs(), {"BLOCK": 1024})
        self.assertEqual(i.grid(132), (977,))

    def test_mixed_pointer_dtypes_floats_and_strides(self):
        i = self._inst("cross_entropy_fwd_kernel", "odd", "fp16")
        self.assertEqual(i.signature(), ["*fp16:16", "*i64:16", "*fp32:16", "*fp32:16",
                                         "i32", "i32", "i32"])
        self.assertEqual(i.scalars(), {"V": 50257, "stride": 50264, "ignore_index": -100})
        self.assertEqual(i.constexprs(), {"BLOCK": 4096})
        self.assertEqual(i.num_warps(), 8)
        j = self._inst("rmsnorm_fwd_kernel", "large", "fp32")
        self.assertEqual(j.signature(), ["*fp32:16"] * 3 + ["*fp32:16", "i32:16", "i32:16",
                                                            "i32:16", "fp32"])

    def test_compile_command(self):
        i = self._inst("batched_transpose_kernel", "odd", "fp16")
        argv = i.compile_command("LNC")
        self.assertEqual(argv[0], "LNC")
        self.assertTrue(argv[1].endswith(os.path.join("corpus", "layout.py")))
        self.assertEqual(argv[2:6], ["--kernel", "batched_transpose_kernel", "--signature",
                                     "*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32"])
        self.assertEqual(argv[6:], ["-D", "BLOCK_M=32", "-D", "BLOCK_N=32", "--num-warps", "4",
                                    "--emit=ptx", "-o", os.devnull])
        self.assertEqual(i.grid(132), (32, 11, 3))

    def test_launch_args_follow_parameter_order(self):
        i = self._inst("histogram_kernel", "small", "fp32")
        args, consts = corpus_run.launch_args(i, {"x": "X", "hist": "H"})
        self.assertEqual(args, ["X", "H", 4096, 16, -4.0, 2.0])
        self.assertEqual(consts, {"BLOCK": 1024})

    def test_tolerance(self):
        i = self._inst("quantize_rows_int8_kernel", "small", "bf16")
        self.assertEqual(i.tolerance("q", "i8"), (1, 0))
        j = self._inst("silu_kernel", "small", "bf16")
        self.assertEqual(j.tolerance("y", "bf16"), (8e-3, 3e-2))
        self.assertEqual(j.tolerance("y", "i32"), (0, 0))


class Formatting(unittest.TestCase):
    def test_geomean(self):
        self.assertAlmostEqual(corpus_run.geomean([1.0, 4.0]), 2.0)
        self.assertAlmostEqual(corpus_run.geomean([0.5, 2.0, None, float("nan")]), 1.0)
        self.assertIsNone(corpus_run.geomean([]))

    def test_finish_record(self):
        r = fake_record("k", "small", "fp16", 2.0, 3.0, nbytes=4000)
        self.assertAlmostEqual(r["ratio"], 1.5)
        self.assertAlmostEqual(r["triton"]["gbps"], 2.0)  # 4000 B / 2 us = 2 GB/s
        self.assertAlmostEqual(r["kiln"]["gbps"], 4000 / 3000)
        wrong = fake_record("k", "small", "fp16", 2.0, 3.0, k_ok=False)
        self.assertIsNone(wrong["ratio"])

    def test_verdict(self):
        self.assertEqual(corpus_run.verdict(fake_record("k", "s", "fp16", 1, 1), ("triton", "kiln")),
                         "ok")
        r = fake_record("k", "s", "fp16", 1, 1, k_ok=False)
        self.assertEqual(corpus_run.verdict(r, ("triton", "kiln")), "WRONG kiln")
        self.assertEqual(corpus_run.verdict(r, ("triton",)), "ok")
        r["triton"]["error"] = "CompilationError: boom"
        self.assertEqual(corpus_run.verdict(r, ("triton", "kiln")), "ERROR triton, WRONG kiln")
        del r["kiln"]
        self.assertEqual(corpus_run.verdict(r, ("kiln",)), "ERROR kiln")

    def test_table(self):
        recs = [fake_record("silu_kernel", "small", "fp16", 10.0, 5.0, nbytes=10**6),
                fake_record("x", "odd", "i32", 1.0, None, k_ok=False)]
        text = corpus_run.format_table(recs, ("triton", "kiln")).splitlines()
        self.assertEqual(len(text), 4)
        self.assertTrue(text[0].startswith("kernel"))
        self.assertIn("Kiln/Triton", text[0])
        self.assertEqual(text[2].split(), ["silu_kernel", "small", "n=4", "fp16", "10.00", "5.00",
                                           "0.50", "100", "200", "ok"])
        self.assertEqual(text[3].split(), ["x", "odd", "n=4", "i32", "1.00", "-", "-", "1", "-",
                                           "WRONG", "kiln"])
        md = corpus_run.format_markdown(recs, ("triton", "kiln")).splitlines()
        self.assertEqual(md[2], "| silu_kernel | small n=4 | fp16 | 10.00 | 5.00 | 0.50 | 100 | "
                                "200 | ok |")

    def test_summary_and_document(self):
        recs = [fake_record("a", "small", "fp16", 2.0, 1.0), fake_record("b", "small", "fp16", 1.0, 2.0),
                fake_record("c", "small", "fp16", 1.0, 1.0, k_ok=False)]
        s = corpus_run.summarize(recs, ("triton", "kiln"))
        self.assertEqual((s["instances"], s["correct"], s["wrong"]), (3, 2, ["c/small/fp16"]))
        self.assertAlmostEqual(s["geomean_kiln_over_triton"], 1.0)
        self.assertEqual((s["min_ratio"], s["max_ratio"]), (0.5, 2.0))
        self.assertIn("2 of 3 instances correct; wrong or failed: c/small/fp16",
                      corpus_run.summary_text(s))
        doc = corpus_run.make_document(recs, ("triton", "kiln"), {"date": "d"})
        self.assertEqual(json.loads(json.dumps(doc))["kind"], "kiln-corpus")

    def test_argument_parsing(self):
        a = corpus_run.parse_args(["--quick", "--kiln-only", "--filter", "silu"])
        self.assertEqual((a.warmup, a.reps, corpus_run.selected_impls(a)), (3, 10, ("kiln",)))
        b = corpus_run.parse_args([])
        self.assertEqual((b.warmup, b.reps, corpus_run.selected_impls(b)),
                         (10, 100, ("triton", "kiln")))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            corpus_run.parse_args(["--kiln-only", "--triton-only"])

    def test_shard(self):
        insts = cases.instances("silu_kernel")
        self.assertEqual(corpus_run.shard(insts, None), insts)
        self.assertEqual([i.id for i in corpus_run.shard(insts, "2/3")],
                         [insts[1].id, insts[4].id, insts[7].id])
        both = corpus_run.shard(insts, "1/2") + corpus_run.shard(insts, "2/2")
        self.assertEqual(sorted(i.id for i in both), sorted(i.id for i in insts))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            corpus_run.parse_args(["--shard", "3/2"])

    def test_perf_report_merges_shards(self):
        insts = cases.instances("softmax_row_kernel/small")
        recs = []
        for i in insts:
            r = corpus_run.base_record(i, 132)
            r["triton"], r["kiln"] = {"us": 2.0, "correct": True}, {"us": 1.0, "correct": True}
            recs.append(corpus_run.finish_record(r))
        docs = [corpus_run.make_document(recs[k::2], ("triton", "kiln"), {"date": f"d{k}"})
                for k in (1, 0)]
        merged = perf_report.merge_corpus(docs)
        self.assertEqual([r["id"] for r in merged["results"]], [i.id for i in insts])
        self.assertEqual(merged["date"], "d1")
        self.assertEqual(merged["summary"]["instances"], 3)
        self.assertAlmostEqual(merged["summary"]["geomean_kiln_over_triton"], 0.5)

    def test_perf_report_corpus_markdown(self):
        doc = corpus_run.make_document(
            [fake_record("a", "small", "fp16", 2.0, 1.0), fake_record("b", "odd", "fp32", 1.0, 2.0)],
            ("triton", "kiln"), {"date": "2026-11-23", "device": {"name": "H100"},
                                 "triton_version": "3.6.0",
                                 "method": {"warmup": 10, "reps": 100,
                                            "l2_flush_bytes": 256 << 20}})
        text = perf_report.corpus_markdown(doc)
        self.assertIn("| a | small n=4 | fp16 | 2.00 | 1.00 | 0.50 |", text)
        self.assertIn("geometric mean 1.000 over 2 instances", text)

    def test_perf_report_corpus_chart(self):
        recs = [fake_record("a", "small", "fp16", 2.0, 1.0),
                fake_record("b", "odd", "fp32", 1.0, 2.0, k_ok=False)]
        doc = corpus_run.make_document(recs, ("triton", "kiln"), {"device": {"name": "H100"}})
        with tempfile.TemporaryDirectory() as d:
            png = os.path.join(d, "c.png")
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                wrote = perf_report.corpus_chart(doc, png)
            try:
                import matplotlib  # noqa: F401
            except ImportError:
                self.assertFalse(wrote)
                self.assertIn("matplotlib is not importable: no chart written", err.getvalue())
                self.assertFalse(os.path.exists(png))
            else:
                self.assertTrue(wrote)
                with open(png, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class Timing(unittest.TestCase):
    """Runner.time with a stand-in torch whose events tick one microsecond
    per launch since the last flush; the queue of launches is recorded."""

    def make_runner(self):
        log = []

        class Event:
            def __init__(self, enable_timing=True):
                self.t = None

            def record(self):
                self.t = len(log)

            def elapsed_time(self, other):
                return 1e-3 * (other.t - self.t) * (2 if log[self.t] == "kiln" else 1)

        class Flush:
            def zero_(self):
                pass

        fake_torch = types.SimpleNamespace(
            cuda=types.SimpleNamespace(Event=Event, synchronize=lambda: None))
        runner = corpus_run.Runner(fake_torch, ("triton", "kiln"), warmup=2, reps=20,
                                   device="cpu")
        runner.flush = Flush()
        return runner, log

    def test_rounds_alternate_and_each_implementation_is_timed_alone(self):
        runner, log = self.make_runner()
        us = runner.time({"triton": lambda: log.append("triton"),
                          "kiln": lambda: log.append("kiln")})
        self.assertEqual(us, {"triton": 1.0, "kiln": 2.0})
        timed = log[4:]  # after 2 warm-up launches of each
        self.assertEqual(len(timed), 40)
        firsts = [timed[i] for i in range(0, 40, 4)]
        self.assertEqual(firsts, ["triton", "kiln"] * 5)
        self.assertEqual(timed[:4], ["triton", "triton", "kiln", "kiln"])


class LayerNormBenchCli(unittest.TestCase):
    """bench/layernorm_best.py without torch: bad list options are refused
    before anything runs, and --plot-only works on a shard's JSON."""
    SCRIPT = os.path.join(HERE, "layernorm_best.py")

    def run_script(self, *argv):
        return subprocess.run([sys.executable, self.SCRIPT, *argv], capture_output=True,
                              text=True, timeout=120)

    def test_unknown_mode_dtype_or_column_is_an_error(self):
        for opt, value, bad in (("--mode", "fwd+bwd", "fwd+bwd"), ("--dtype", "fp16,fp8", "fp8"),
                                ("--columns", "kiln,triton", "triton")):
            r = self.run_script(opt, value)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"{opt} {value}: unknown {bad}", r.stderr)

    def plot_shard(self, gbps, d):
        """--plot-only on a one-row fwd fp16 4096 x 8192 shard in directory d."""
        row = {"mode": "fwd", "dtype": "fp16", "M": 4096, "N": 8192, "gbps": gbps}
        shard = os.path.join(d, "shard.json")
        with open(shard, "w") as f:
            json.dump([row], f)
        r = self.run_script("--plot-only", "--out", d, "--merge", shard)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def test_plot_only_merges_a_shard_without_torch(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.plot_shard({"kiln": 2632.0, "torch": 1733.0}, d)
            self.assertIn("| fwd | fp16 | 4096 | 8192 |", r.stdout)
            with open(os.path.join(d, "layernorm_best.json")) as f:
                self.assertEqual(len(json.load(f)), 1)

    def test_the_copy_ceiling_is_never_the_best_other_column(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.plot_shard({"kiln": 2000.0, "torch": 1000.0, "copy": 3000.0}, d)
            self.assertIn("| 2000 | - | 1000 | - | - | - | 3000 | 2.00 |", r.stdout)

    def test_unknown_flush_is_an_error(self):
        r = self.run_script("--flush", "none")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--flush: invalid choice: 'none'", r.stderr)


class Check(unittest.TestCase):
    def test_counts_failures_of_a_fake_compiler(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "fake-ln-compile")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\ncase \"$*\" in\n  *'--kernel silu_kernel'*'*bf16'*) "
                        "echo 'silu.py:1:1: error: nope' >&2; exit 1;;\nesac\nexit 0\n")
            os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = corpus_check.main(["--ln-compile", fake, "--filter", "silu_kernel"])
            self.assertEqual(rc, 1)
            text = out.getvalue()
            self.assertIn("4 passed, 2 failed", text)
            self.assertIn("FAIL silu_kernel/small/bf16 silu_kernel/large/bf16\n", text)
            self.assertIn("error: nope", text)

    def test_ptxas_errors_and_spills(self):
        with tempfile.TemporaryDirectory() as d:
            def script(name, body):
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    f.write("#!/bin/sh\n" + body)
                os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
                return path
            # The fake compiler writes the kernel name as the "PTX" (-o is last).
            lnc = script("lnc", 'for a; do out="$a"; done; echo "$3" > "$out"\n')
            ptxas = script("ptxas", 'for a in "$@"; do case "$a" in *.ptx) ptx="$a";; esac; done\n'
                           'case "$(cat "$ptx")" in\n'
                           '  axpby_kernel) echo "ptxas fatal: bad PTX" >&2; exit 1;;\n'
                           '  silu_kernel) echo "ptxas info: Used 255 registers, 64 bytes spill '
                           'stores, 32 bytes spill loads";;\n'
                           '  *) echo "ptxas info: Used 40 registers, 0 bytes spill stores, '
                           '0 bytes spill loads";;\nesac\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = corpus_check.main(["--ln-compile", lnc, "--ptxas", ptxas, "--filter", "/small/fp16"])
            text = out.getvalue()
            self.assertEqual(rc, 1)
            n = len(cases.instances("/small/fp16"))
            self.assertIn(f"{n - 1} passed, 1 failed", text)
            self.assertIn("FAIL axpby_kernel/small/fp16", text)
            self.assertIn("ptxas: ptxas fatal: bad PTX", text)
            self.assertIn("ok   silu_kernel/small/fp16  (255 registers, SPILLS 64 B stores / 32 B loads)",
                          text)
            self.assertIn("assembled with ptxas (1 with register spills)", text)



FAKE_WORKER = r'''
import json, os, sys, time
sys.path.insert(0, {here!r}); sys.path.insert(0, os.path.join({here!r}, "corpus"))
import cases, corpus_run
start, part = int(sys.argv[1]), sys.argv[2]
insts = cases.instances("silu_kernel")
with open(part, "a") as out:
    out.write(json.dumps({{"meta": {{"date": "fake"}}}}) + "\n"); out.flush()
    for i in range(start, len(insts)):
        if i == 1:
            time.sleep(60)          # hangs: the supervisor kills it
        if i == 3:
            os._exit(7)             # crashes
        rec = corpus_run.base_record(insts[i], 132)
        rec["triton"] = {{"us": 2.0, "correct": True}}
        rec["kiln"] = {{"us": 1.0, "correct": True}}
        if i == 5:
            rec["kiln"] = {{"error": "CUDA error: an illegal memory access"}}
            rec["context_lost"] = True
        out.write(json.dumps({{"record": corpus_run.finish_record(rec)}}) + "\n"); out.flush()
        if i == 5:
            sys.exit(3)
'''


class Supervisor(unittest.TestCase):
    def test_hang_crash_and_lost_context_do_not_stop_the_run(self):
        script = FAKE_WORKER.format(here=HERE)
        args = corpus_run.parse_args(["--filter", "silu_kernel", "--instance-timeout", "6"])
        insts = cases.instances("silu_kernel")
        starts = []

        def fake_argv(a, start, part):
            starts.append(start)
            return [sys.executable, "-c", script, str(start), part]

        real = corpus_run.worker_argv
        corpus_run.worker_argv = fake_argv
        try:
            with contextlib.redirect_stdout(io.StringIO()) as out:
                meta, results, not_run = corpus_run.supervise(args, insts, ("triton", "kiln"))
        finally:
            corpus_run.worker_argv = real
        self.assertEqual(meta, {"date": "fake"})
        self.assertEqual(not_run, [])
        self.assertEqual([r["id"] for r in results], [i.id for i in insts])
        # Worker 1 hangs at 1, worker 2 crashes at 3, worker 3 loses its context at 5.
        self.assertEqual(starts, [0, 2, 4, 6])
        self.assertIn("no progress for 6.0 s: killed", results[1]["kiln"]["error"])
        self.assertIn("worker process died (exit status 7)", results[3]["triton"]["error"])
        self.assertIn("illegal memory access", results[5]["kiln"]["error"])
        s = corpus_run.summarize(results, ("triton", "kiln"))
        self.assertEqual(s["wrong"], [insts[i].id for i in (1, 3, 5)])
        self.assertEqual(s["compared"], len(insts) - 3)
        self.assertIn("ERROR kiln", out.getvalue())


class Docs(unittest.TestCase):
    def test_performance_md_lists_every_kernel(self):
        with open(os.path.join(HERE, "..", "docs", "performance.md")) as f:
            text = f.read()
        section = text[text.index("## Kernel corpus"):]
        for c in cases.CASES:
            self.assertIn(f"| `{c.kernel}` | {c.file} | {c.covers} |", section)


if __name__ == "__main__":
    unittest.main()
