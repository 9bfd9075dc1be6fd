"""torch under Kiln's drop-in `triton` (fake_torch mimics torch 2.11's
Triton integration; no GPU, no real torch): torch is told there is no
Triton, torch.compile regions run eagerly, dynamo skips kiln's code, and
uninstall() gives torch its settings back."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class TorchTest(unittest.TestCase):
    def test_torch_sees_no_triton(self):
        # torch's own Triton integration imports Triton's compiler internals
        # once `import triton` works (fake_torch mimics torch 2.11): under
        # the drop-in torch is told there is no Triton, whether torch.utils.
        # _triton is imported after kiln.install() or before it, its modules'
        # own `try: import triton` fail (and the drop-in stays imported for
        # everyone else), and uninstall() gives torch its answer back.
        code = ("import sys, kiln\n"
                "early = sys.argv[1] == 'early'\n"
                "if early:\n"
                "    import torch.utils._triton as t\n"
                "    print('before', t.has_triton_package())\n"
                "kiln.install()\n"
                "import triton, torch.utils._triton as t, torch._inductor.hints as h\n"
                "import torch._inductor.runtime.triton_compat as c\n"
                "import torch._dynamo.config as dc, torch._dynamo.trace_rules as tr\n"
                "print('drop-in', triton.__kiln__, t.has_triton_package(), t.has_triton(), h.TRITON,\n"
                "      c.HAS_TRITON, sys.modules['triton'] is triton)\n"
                "print('dynamo', dc.suppress_errors, dc.disable, bool(tr.SKIP_DIRS_RE.match(kiln.__file__)),\n"
                "      bool(tr.SKIP_DIRS_RE.match(triton.__file__)), bool(tr.SKIP_DIRS_RE.match(__file__ if '__file__' in dir() else 'x.py')))\n"
                "kiln.uninstall()\n"
                "from kiln import _finder\n"
                "print('after', t.has_triton_package is not _finder._no_triton_package, dc.disable, dc.suppress_errors)\n")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [os.path.dirname(HERE), os.path.join(HERE, "fake_torch")]))
        for when in ("late", "early"):
            r = subprocess.run([sys.executable, "-c", code, when], capture_output=True,
                               text=True, env=env, cwd=HERE)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = r.stdout.splitlines()
            if when == "early":  # no real Triton on CI's path
                self.assertEqual(lines.pop(0), "before False")
            # torch.compile: regions run eagerly (dynamo off; with it on, a
            # region inductor cannot build would), dynamo does not trace
            # kiln's (or the drop-in triton's) code, and uninstall() puts
            # torch's settings back.
            self.assertEqual(lines, ["drop-in True False False None False True",
                                     "dynamo True True True True False",
                                     "after True False False"])
        # KILN_TORCH_COMPILE=1 keeps dynamo on.
        r = subprocess.run([sys.executable, "-c", code, "late"],
                           capture_output=True, text=True, cwd=HERE,
                           env=dict(env, KILN_TORCH_COMPILE="1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("dynamo True False True True False", r.stdout)


if __name__ == "__main__":
    unittest.main()
