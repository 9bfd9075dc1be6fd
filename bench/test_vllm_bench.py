"""vllm_bench.py without a GPU or torch: its loader of vLLM's kernel files (bare packages, no
__init__.py run, the stand-ins and hollow modules), the import graph of the chosen kernels in
.ext/vllm (skipped with a printed reason when the tree is absent), and the comparison of its
rows (forward only; masked logits, -inf by design, as non-finite counts)."""
import ast
import contextlib
import os
import sys
import tempfile
import types
import unittest
from unittest import mock

import vllm_bench as vb
from test_liger_bench import compare_output
from test_lightllm_bench import write

# What a kernel module may import at its top level besides vLLM's modules.
LIGHT_IMPORTS = {"torch", "triton", "packaging", "math", "os", "sys", "enum", "json",
                 "logging", "functools", "typing", "collections", "dataclasses",
                 "__future__", "multiprocessing", "concurrent", "tempfile", "uuid", "types",
                 "importlib"}
TRITON = ["triton", "triton.language", "triton.language.extra",
          "triton.language.extra.libdevice"]


def fake_packaging():
    """packaging.version.parse for `version.parse(triton.__version__) < ...` (CI may not
    have packaging)."""
    pkg, ver = types.ModuleType("packaging"), types.ModuleType("packaging.version")
    ver.parse = lambda s: tuple(int(x) for x in s.split(".")[:3])
    pkg.version = ver
    return {"packaging": pkg, "packaging.version": ver}


@contextlib.contextmanager
def isolated_modules(fakes=(), real=None):
    """Runs the body with `fakes` (module names) as mocks and `real` (name -> module) in
    sys.modules, and removes every vllm module and any module the body added afterwards.
    The mock triton is 3.6.0 and the mock torch's GPU is an sm_90."""
    saved = dict(sys.modules)
    try:
        for name in fakes:
            sys.modules[name] = mock.MagicMock(name=name)
        if "triton" in fakes:
            sys.modules["triton"].__version__ = "3.6.0"
        if "torch" in fakes:
            sys.modules["torch"].cuda.get_device_capability.return_value = (9, 0)
        sys.modules.update(real or {})
        yield
    finally:
        for name in list(sys.modules):
            if name not in saved or name.split(".")[0] == "vllm":
                del sys.modules[name]
        sys.modules.update(saved)


class LoaderTest(unittest.TestCase):
    def test_init_files_never_run_and_stand_ins_answer(self):
        with tempfile.TemporaryDirectory() as root, isolated_modules(TRITON):
            boom = "raise RuntimeError('an __init__.py ran')\n"
            for pkg in ("vllm", "vllm/a", "vllm/a/k", "vllm/triton_utils"):
                write(root, pkg + "/__init__.py", boom)
            write(root, "vllm/triton_utils/importing.py", boom)
            write(root, "vllm/a/k/e.py", "Y = 1\n")
            write(root, "vllm/a/k/b.py",
                  "from vllm.triton_utils import HAS_TRITON, tl, triton\n"
                  "from vllm.platforms import current_platform\n"
                  "from vllm import _custom_ops as ops\n"
                  "from vllm.utils.torch_utils import direct_register_custom_op\n"
                  "direct_register_custom_op(op_name='x', op_func=None)\n"
                  "def f(x: ops.Thing | None = ops.Thing.DEFAULT):\n"
                  "    from .e import Y\n    return Y + 41\n")
            os.makedirs(os.path.join(root, "vllm", "utils"))
            names = vb.install(root)
            self.assertIn("vllm.a.k", names)
            self.assertNotIn("vllm.triton_utils", names)  # a stand-in, not a bare package
            b = vb.load("a.k.b", root)
            self.assertEqual(b.f(), 42)
            self.assertEqual(b.__file__, os.path.join(root, "vllm", "a", "k", "b.py"))
            for name in names:
                self.assertIsNone(getattr(sys.modules[name], "__file__", None), name)
            self.assertIs(b.triton, sys.modules["triton"])
            self.assertIs(b.tl, sys.modules["triton"].language)
            self.assertIs(b.HAS_TRITON, True)
            self.assertFalse(b.current_platform.is_rocm())
            self.assertIsNone(b.ops.moe_sum(1, 2))
            # The stand-ins name the real files, whose bindings Kiln's drop-in passes.
            utils = sys.modules["vllm.triton_utils"]
            self.assertEqual(utils.__file__,
                             os.path.join(root, "vllm", "triton_utils", "__init__.py"))
            self.assertEqual(sys.modules["vllm.triton_utils.importing"].__file__,
                             os.path.join(root, "vllm", "triton_utils", "importing.py"))
            # A second install keeps the stand-ins the modules already hold.
            vb.install(root)
            self.assertIs(sys.modules["vllm.triton_utils"], utils)
            self.assertIs(vb.load("a.k.b", root), b)

    def test_missing_tree_says_how_to_extract(self):
        with tempfile.TemporaryDirectory() as root:
            with self.assertRaises(FileNotFoundError) as e:
                vb.install(root)
            self.assertIn(vb.COMMIT, str(e.exception))
            self.assertIn("'%s'" % vb.MOE_CONFIG, str(e.exception))  # quoted: `=` and `,`

    def test_platform_is_an_nvidia_gpu(self):
        with isolated_modules(["torch"]):
            p = vb._CudaPlatform()
            self.assertTrue(p.is_cuda() and p.is_cuda_alike())
            self.assertFalse(p.is_rocm() or p.is_xpu())
            self.assertTrue(p.has_device_capability(80))
            self.assertTrue(p.has_device_capability((9, 0)))
            self.assertFalse(p.has_device_capability(100))
            self.assertEqual(p.get_device_capability(), (9, 0))

    def test_logger_once(self):
        log = vb._Logger(mock.MagicMock(), {})
        for _ in range(3):
            log.warning_once("default config for %s", "E=128", scope="global")
        log.info_once("other")
        self.assertEqual(log.logger.log.call_count, 2)


def module_file(module):
    return os.path.join(vb.EXT, "vllm", *module.split(".")) + ".py"


def top_level_imports(path, module):
    """[vLLM module or None, external top-level name or None] of each import statement at
    the module's top level (also inside its top-level `if`/`try`); `from vllm import x`
    names vllm.x."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    package = module.rpartition(".")[0]
    found, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try)):
            todo += node.body + node.orelse + getattr(node, "finalbody", [])
            todo += [s for h in getattr(node, "handlers", []) for s in h.body]
            continue
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(["vllm"] + base + ([node.module] if node.module else []))
            else:
                base = node.module
            names = [base + "." + a.name if base == "vllm" else base for a in node.names]
        for name in names:
            if name.split(".")[0] == "vllm":
                found.append((name[len("vllm."):], None))
            else:
                found.append((None, name.split(".")[0]))
    return found


HAVE_TREE = os.path.isdir(os.path.join(vb.EXT, "vllm"))
if not HAVE_TREE:
    print(f"test_vllm_bench: {vb.EXT} is absent, its tests are skipped", file=sys.stderr)


@unittest.skipUnless(HAVE_TREE, "no .ext/vllm (extract it as vllm_bench.install()'s error says)")
class ExtractedTreeTest(unittest.TestCase):
    def closure(self):
        """The vLLM modules the chosen ops load, from the wrappers and kernel modules through
        every top-level import but those of stand-ins and hollow modules (functions' own
        imports run only on paths the bench does not take)."""
        todo = [m for w, ks in vb.OPS.values() for m in [w] + [k for k, _ in ks]]
        stubbed = {n[len("vllm."):] for n in vb.STAND_INS + vb.HOLLOW}
        seen, external = set(), set()
        while todo:
            m = todo.pop()
            if m in seen or m in stubbed:
                continue
            seen.add(m)
            self.assertTrue(os.path.isfile(module_file(m)), f"vllm.{m} is not extracted")
            for inner, outer in top_level_imports(module_file(m), m):
                if inner is not None:
                    todo.append(inner)
                else:
                    external.add((m, outer))
        return seen, external

    def test_import_graph_stays_in_the_tree_and_light(self):
        seen, external = self.closure()
        heavy = sorted(f"vllm.{m} imports {x}" for m, x in external if x not in LIGHT_IMPORTS)
        self.assertEqual(heavy, [])
        extracted = {"vllm/%s.py" % m.replace(".", "/") for m in seen}
        kiln_reads = {"vllm/triton_utils/__init__.py", "vllm/triton_utils/importing.py"}
        self.assertEqual(sorted(vb.EXTRACT),  # no file more, none less
                         sorted({"LICENSE", vb.MOE_CONFIG} | extracted | kiln_reads))
        for rel in vb.EXTRACT:
            self.assertTrue(os.path.isfile(os.path.join(vb.EXT, rel)), rel)
        with open(os.path.join(vb.EXT, "COMMIT")) as f:
            self.assertEqual(f.read().strip(), vb.COMMIT)
        for d, _, files in os.walk(vb.EXT):
            if "__init__.py" in files:  # only the one Kiln's compiler reads, never run
                self.assertEqual(d, os.path.join(vb.EXT, "vllm", "triton_utils"))

    def test_stand_ins_hold_only_names_their_files_bind(self):
        # Kiln's drop-in passes a module's value for a name its file binds inside an `if` or
        # `try` (triton, tl, HAS_TRITON); a name the file never binds would be passed as an
        # injected one.
        with isolated_modules(TRITON):
            for name, stand_in in vb._stand_ins(vb.EXT).items():
                if not getattr(stand_in, "__file__", None):
                    continue
                with open(stand_in.__file__) as f:
                    tree = ast.parse(f.read())
                bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                         and isinstance(n.ctx, ast.Store)}
                bound |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                          if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
                own = {k for k in vars(stand_in) if not k.startswith("__")}
                self.assertLessEqual(own, bound, name)

    def test_kernels_are_jit_functions_of_their_files(self):
        for op, (_, kernels) in vb.OPS.items():
            for module, name in kernels:
                with open(module_file(module)) as f:
                    tree = ast.parse(f.read())
                defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
                self.assertIn(name, defs, f"{op}: {module}")
                decorators = [ast.unparse(d) for d in defs[name].decorator_list]
                self.assertEqual(decorators[-1:], ["triton.jit"], f"{op}: {module}.{name}")
                for d in decorators[:-1]:  # layernorm_gated's HAS_BIAS / HAS_Z
                    self.assertTrue(d.startswith("triton.heuristics("), d)

    def test_modules_load_from_the_tree_alone(self):
        # torch and triton are mocks here: this checks which files run, not the kernels.
        fakes = ["torch", "torch.nn", "torch.nn.functional"] + TRITON
        with isolated_modules(fakes, fake_packaging()):
            packages = set(vb.install())
            for op, (wrapper, kernels) in vb.OPS.items():
                mod = vb.load(wrapper)
                self.assertEqual(mod.__file__, module_file(wrapper), op)
                for module, name in kernels:
                    self.assertTrue(hasattr(vb.load(module), name), f"{op}: {name}")
            for name, m in sys.modules.items():
                if name.split(".")[0] != "vllm":
                    continue
                path = getattr(m, "__file__", None)
                if name in packages or name in vb.HOLLOW:
                    self.assertIsNone(path, name)  # no __init__.py ran
                elif name in vb.STAND_INS:
                    self.assertTrue(m.__vllm_bench_stand_in__, name)
                else:
                    self.assertTrue(path.startswith(vb.EXT + os.sep), (name, path))
            for s in vb.STAND_INS + vb.HOLLOW:
                self.assertIn(s, sys.modules)

    def test_table_names_the_ops(self):
        fake = mock.MagicMock()
        self.assertEqual(list(vb.ops_table(fake, "cuda")), list(vb.OPS))
        self.assertEqual(vb.UNIFIED_DECODE_BATCH * vb.KV_HEADS, 128)  # triton_attn.py's bound
        self.assertEqual(vb.next_pow2(max(vb.decode_lens()) // 512), 8)
        self.assertEqual(sum(n % vb.PAGE == 0 for n in vb.decode_lens()), 2)


class CompareTest(unittest.TestCase):
    def compare(self, *runs):
        return compare_output(vb.compare, *runs)

    def test_forward_only_rows(self):
        tri = [{"op": "fused_moe", "backend": "triton", "fwd_us": 300.0, "checksum": 3.0,
                "kernels": {"fused_moe_kernel": [290.0, 1]}},
               {"op": "unified_attention", "backend": "triton", "fwd_us": 20.0,
                "checksum": 1.0}]
        kiln = [{"op": "fused_moe", "backend": "kiln", "fwd_us": 240.0, "checksum": 3.0,
                 "kernels": {"fused_moe_kernel": [232.0, 1]}},
                {"op": "unified_attention", "backend": "kiln",
                 "error": "CompilationError: boom"}]
        text = self.compare(tri, kiln)
        line = next(l for l in text.splitlines() if l.startswith("fused_moe"))
        self.assertEqual(line.split()[1:], ["300.0", "240.0", "0.800", "-", "-", "-", "same"])
        kline = next(l for l in text.splitlines() if "fused_moe_kernel" in l)
        self.assertTrue(kline.rstrip().endswith("0.800"), kline)
        uline = next(l for l in text.splitlines() if l.startswith("unified_attention"))
        self.assertIn("DIFFERS CompilationError: boom", uline)
        self.assertIn("geomean fwd_us: 0.800 over 1 ops", text)
        self.assertNotIn("geomean full_us", text)

    def test_masked_logits(self):
        # top-k / top-p leave -inf in the logits: the finite elements' sums agree, and so
        # must the counts of the rest.
        def row(backend, checksum, nonfinite):
            r = {"op": "topk_topp", "backend": backend, "fwd_us": 10.0, "checksum": checksum,
                 "magnitude": 1e6}
            if nonfinite:
                r["nonfinite"] = nonfinite
            return [r]
        self.assertIn(" same", self.compare(row("triton", 5.0, 3000),
                                            row("kiln", 5.0, 3000)).splitlines()[1])
        for kiln in (row("kiln", 5.0, 2999), row("kiln", 5.0, 0)):
            self.assertIn("DIFFERS", self.compare(row("triton", 5.0, 3000),
                                                  kiln).splitlines()[1])


if __name__ == "__main__":
    unittest.main()
