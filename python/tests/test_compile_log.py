"""KILN_DUMP_COMPILES (docs/runtime.md): every compile the runtime starts is
written down as the ln-compile command that repeats it, and that command,
run, gives the same PTX: a kernel module made from a string, and a drop-in
kernel whose file imports helpers and binds names in host code (import
roots, host bindings, decorators left to the host). A cache hit writes
nothing; a log that cannot be written never fails the compile. Stand-in
driver and tensors, no GPU.
"""
import os
import shlex
import subprocess
import tempfile
import unittest

TMP = tempfile.mkdtemp(prefix="kiln-compile-log-")
LOG = os.path.join(TMP, "compiles.sh")
os.environ["KILN_DUMP_COMPILES"] = LOG
os.environ["KILN_CACHE_DIR"] = os.path.join(TMP, "cache")  # every first compile misses

from kilntest_common import ADD_SOURCE, FakeTensor  # noqa: E402

import kiln  # noqa: E402

kiln.install()

from dropin import host_chosen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LN_COMPILE = os.environ.get("KILN_LN_COMPILE", "")


def logged():
    with open(LOG) as f:
        return f.read().splitlines()


def replay(line):
    argv = shlex.split(line)
    if argv[0] != "ln-compile":
        raise AssertionError("not an ln-compile command: " + line)
    done = subprocess.run([LN_COMPILE] + argv[1:], capture_output=True,
                          text=True, timeout=120)
    if done.returncode:
        raise AssertionError("%s failed (%d): %s" % (line, done.returncode,
                                                      done.stderr))
    return done.stdout


@unittest.skipUnless(os.path.exists(LN_COMPILE),
                     "KILN_LN_COMPILE does not name the ln-compile binary")
class CompileLogTest(unittest.TestCase):
    def setUp(self):
        open(LOG, "w").close()

    def test_module_from_a_string(self):
        k = kiln.jit(source=ADD_SOURCE, filename="add.py").add_kernel
        x, y = FakeTensor(0x10000), FakeTensor(0x10004)
        first = k.compile(x, x, x, 1000, BLOCK=128, num_warps=2)
        second = k.compile(x, y, x, 1, BLOCK=64, SCALE=3, num_stages=2)
        k.compile(x, x, x, 1000, BLOCK=128, num_warps=2)  # a hit
        lines = logged()
        self.assertEqual(len(lines), 2, lines)
        source = os.path.join(LOG + ".src", os.listdir(LOG + ".src")[0])
        with open(source) as f:
            self.assertTrue(f.read().startswith(ADD_SOURCE))
        self.assertEqual(
            lines[0],
            "ln-compile %s --kernel add_kernel --signature "
            "'*fp32:16,*fp32:16,*fp32:16,i32,128,2' -D BLOCK=128 -D SCALE=2 "
            "--num-warps 2 --num-stages 3 --arch sm_90" % source)
        # n = 1 is specialized (a constexpr, inline as a literal).
        self.assertIn("--signature '*fp32:16,*fp32,*fp32:16,1,64,3' -D BLOCK=64 "
                      "-D SCALE=3 --num-warps 4 --num-stages 2", lines[1])
        self.assertEqual(replay(lines[0]), first.ptx)
        self.assertEqual(replay(lines[1]), second.ptx)

    def test_dropin_kernel_with_imports_and_host_bindings(self):
        x, out = FakeTensor(0x10000), FakeTensor(0x20000)
        ptx = host_chosen.rsqrt_kernel.warmup(x, out, 1000,
                                              grid=(8,)).asm["ptx"]
        lines = logged()
        self.assertEqual(len(lines), 1, lines)
        line = lines[0]
        self.assertTrue(line.startswith(
            "ln-compile %s --kernel rsqrt_kernel " %
            os.path.join(HERE, "dropin", "host_chosen.py")), line)
        self.assertIn(" --host-decorators", line)
        self.assertIn(" -I %s" % HERE, line)
        self.assertIn(" --bind rsqrt=triton.language.math.rsqrt ", line)
        self.assertIn(" --bind 'MODE='\\''sum'\\'''", line)
        self.assertIn(" --bind BLOCK=128", line)
        self.assertEqual(replay(line), ptx)

    def test_unwritable_log_never_fails_a_compile(self):
        os.environ["KILN_DUMP_COMPILES"] = os.path.join(TMP, "no", "such",
                                                        "dir", "log")
        try:
            k = kiln.jit(source=ADD_SOURCE, filename="add.py").scale_kernel
            c = k.compile(FakeTensor(0x10000), 2.0, 64, 1, BLOCK=64)
            self.assertIn(".entry scale_kernel", c.ptx)
            self.assertFalse(os.path.exists(os.path.join(TMP, "no", "such",
                                                         "dir", "log")))
        finally:
            os.environ["KILN_DUMP_COMPILES"] = LOG
        self.assertEqual(logged(), [])


if __name__ == "__main__":
    unittest.main()
