"""lightllm_bench.py without a GPU or torch: its loader of lightllm's kernel files (bare
packages, no __init__.py run), the import graph of the chosen kernels in .ext/lightllm (skipped
with a printed reason when the tree is absent), and the comparison of rows that have no
full_us (lightllm is timed forward only)."""
import ast
import contextlib
import os
import sys
import tempfile
import unittest
from unittest import mock

import lightllm_bench as lb
from test_liger_bench import compare_output

# What a kernel module may import when it is loaded (its top level); the rest of the host
# side (numpy, time in the files' test() functions) runs only if called.
LIGHT_IMPORTS = {"torch", "triton", "math", "os", "sys", "time", "shutil", "subprocess",
                 "functools", "logging", "typing"}


@contextlib.contextmanager
def isolated_modules(fakes=()):
    """Runs the body with `fakes` (module names) as mocks in sys.modules, and removes every
    lightllm module, fake or not, and any module the body added, afterwards."""
    saved = dict(sys.modules)
    try:
        for name in fakes:
            sys.modules[name] = mock.MagicMock(name=name)
        yield
    finally:
        for name in list(sys.modules):
            if name not in saved or name.split(".")[0] in {"lightllm"} | {
                    f.split(".")[0] for f in fakes}:
                del sys.modules[name]
        sys.modules.update(saved)


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class LoaderTest(unittest.TestCase):
    def test_init_files_never_run(self):
        with tempfile.TemporaryDirectory() as root, isolated_modules():
            boom = "raise RuntimeError('an __init__.py ran')\n"
            for pkg in ("lightllm", "lightllm/a", "lightllm/a/k", "lightllm/c"):
                write(root, pkg + "/__init__.py", boom)
            write(root, "lightllm/c/d.py", "X = 41\n")
            write(root, "lightllm/a/k/e.py", "Y = 1\n")
            write(root, "lightllm/a/k/b.py",
                  "from lightllm.c.d import X\n"
                  "def f():\n    from .e import Y\n    return X + Y\n")
            names = lb.install(root)
            self.assertIn("lightllm.a.k", names)
            b = lb.load("a.k.b", root)
            self.assertEqual(b.f(), 42)
            self.assertEqual(b.__file__, os.path.join(root, "lightllm", "a", "k", "b.py"))
            for name in names:
                self.assertIsNone(getattr(sys.modules[name], "__file__", None), name)
            self.assertIs(sys.modules["lightllm.a"].k, sys.modules["lightllm.a.k"])

    def test_missing_tree_says_how_to_extract(self):
        with tempfile.TemporaryDirectory() as root:
            with self.assertRaises(FileNotFoundError) as e:
                lb.install(root)
            self.assertIn(lb.COMMIT, str(e.exception))
            self.assertIn("lightllm/models/llama/triton_kernel/rmsnorm.py", str(e.exception))


def module_file(module):
    return os.path.join(lb.EXT, "lightllm", *module.split(".")) + ".py"


def imports_of(path, module):
    """[(imported lightllm module or None, external top-level name or None, at top level)]."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = module.rpartition(".")[0]
    top = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative to the module's package
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                names = [".".join(["lightllm"] + base + ([node.module] if node.module else []))]
            else:
                names = [node.module]
        for name in names:
            if name.split(".")[0] == "lightllm":
                found.append((name[len("lightllm."):], None, id(node) in top))
            else:
                found.append((None, name.split(".")[0], id(node) in top))
    return found


HAVE_TREE = os.path.isdir(os.path.join(lb.EXT, "lightllm"))
if not HAVE_TREE:
    print(f"test_lightllm_bench: {lb.EXT} is absent, its tests are skipped", file=sys.stderr)


@unittest.skipUnless(HAVE_TREE, "no .ext/lightllm (extract it as lightllm_bench.install()'s "
                     "error says)")
class ExtractedTreeTest(unittest.TestCase):
    def closure(self):
        """The lightllm modules the chosen ops need, from the wrappers and kernel modules
        through every import (a function's too: flash_decoding imports its stages inside)."""
        todo = [m for w, ks in lb.OPS.values() for m in [w] + [k for k, _ in ks]]
        seen, external = set(), set()
        while todo:
            m = todo.pop()
            if m in seen:
                continue
            seen.add(m)
            self.assertTrue(os.path.isfile(module_file(m)), f"lightllm.{m} is not extracted")
            for inner, outer, top in imports_of(module_file(m), m):
                if inner is not None:
                    todo.append(inner)
                elif top:
                    external.add((m, outer))
        return seen, external

    def test_import_graph_stays_in_the_tree_and_light(self):
        seen, external = self.closure()
        heavy = sorted(f"lightllm.{m} imports {x}" for m, x in external if x not in LIGHT_IMPORTS)
        self.assertEqual(heavy, [])
        extracted = sorted("lightllm/%s.py" % m.replace(".", "/") for m in seen)
        self.assertEqual(["LICENSE"] + extracted, lb.EXTRACT)  # no file more, none less
        for rel in lb.EXTRACT:
            self.assertTrue(os.path.isfile(os.path.join(lb.EXT, rel)), rel)
        with open(os.path.join(lb.EXT, "COMMIT")) as f:
            self.assertEqual(f.read().strip(), lb.COMMIT)
        for d, _, files in os.walk(lb.EXT):
            self.assertNotIn("__init__.py", files, d)

    def test_kernels_are_jit_functions_of_their_files(self):
        for op, (_, kernels) in lb.OPS.items():
            for module, name in kernels:
                with open(module_file(module)) as f:
                    tree = ast.parse(f.read())
                defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
                self.assertIn(name, defs, f"{op}: {module}")
                decorators = [ast.unparse(d) for d in defs[name].decorator_list]
                self.assertEqual(decorators, ["triton.jit"], f"{op}: {module}.{name}")

    def test_modules_load_from_the_tree_alone(self):
        # torch and triton are mocks here: this checks which files run, not the kernels.
        fakes = ["torch", "torch.nn", "torch.nn.functional", "triton", "triton.language"]
        with isolated_modules(fakes):
            packages = set(lb.install())
            for op, (wrapper, kernels) in lb.OPS.items():
                mod = lb.load(wrapper)
                self.assertEqual(mod.__file__, module_file(wrapper), op)
                for module, name in kernels:
                    self.assertTrue(hasattr(lb.load(module), name), f"{op}: {name}")
            for name, m in sys.modules.items():
                if name.split(".")[0] != "lightllm":
                    continue
                path = getattr(m, "__file__", None)
                if name in packages:
                    self.assertIsNone(path, name)  # a bare package: no __init__.py ran
                else:
                    self.assertTrue(path.startswith(lb.EXT + os.sep), (name, path))

    def test_table_names_the_ops(self):
        fake = mock.MagicMock()
        self.assertEqual(list(lb.ops_table(fake, "cuda")), list(lb.OPS))
        lens = lb.decode_lens()
        self.assertEqual(len(lens), lb.DECODE_BATCH)
        self.assertLessEqual(max(lens), lb.MAX_LEN)
        self.assertLessEqual(lb.PREFILL_LEN, lb.MAX_LEN)


class CompareTest(unittest.TestCase):
    def compare(self, *runs):
        return compare_output(lb.compare, *runs)

    def test_forward_only_rows(self):
        tri = [{"op": "rmsnorm", "backend": "triton", "fwd_us": 50.0, "checksum": 3.0,
                "kernels": {"_rms_norm_fwd_fused": [48.0, 1]}},
               {"op": "rotary_emb", "backend": "triton", "fwd_us": 20.0, "checksum": 1.0}]
        kiln = [{"op": "rmsnorm", "backend": "kiln", "fwd_us": 40.0, "checksum": 3.0,
                 "kernels": {"_rms_norm_fwd_fused": [36.0, 1]}},
                {"op": "rotary_emb", "backend": "kiln", "error": "CompilationError: boom"}]
        text = self.compare(tri, kiln)
        line = next(l for l in text.splitlines() if l.startswith("rmsnorm"))
        self.assertEqual(line.split()[1:], ["50.0", "40.0", "0.800", "-", "-", "-", "same"])
        kline = next(l for l in text.splitlines() if "_rms_norm_fwd_fused" in l)
        self.assertTrue(kline.rstrip().endswith("0.750"), kline)
        rline = next(l for l in text.splitlines() if l.startswith("rotary_emb"))
        self.assertIn("DIFFERS CompilationError: boom", rline)
        self.assertIn("geomean fwd_us: 0.800 over 1 ops", text)
        self.assertNotIn("geomean full_us", text)

    def test_sums_in_another_order(self):
        # lightllm's token_att1 keeps an fp16 sum: 2.5 M scores summing to -15.1 under Triton
        # and -15.3 under Kiln, 2 M in magnitude. Within 1e-5 of the magnitude: the same.
        def row(backend, checksum, magnitude=None):
            r = {"op": "token_att1", "backend": backend, "fwd_us": 10.0, "checksum": checksum}
            if magnitude is not None:
                r["magnitude"] = magnitude
            return [r]
        agree = self.compare(row("triton", -15.09, 2.0e6), row("kiln", -15.31, 2.0e6))
        self.assertIn(" same", agree.splitlines()[1])
        # Without a magnitude (rows of earlier runs) the 1 % rule alone decides.
        old = self.compare(row("triton", -15.09), row("kiln", -15.31))
        self.assertIn("DIFFERS", old.splitlines()[1])
        # A difference beyond both bounds is still one.
        wrong = self.compare(row("triton", -15.09, 2.0e6), row("kiln", 60.0, 2.0e6))
        self.assertIn("DIFFERS", wrong.splitlines()[1])


if __name__ == "__main__":
    unittest.main()
