"""KILN_LLVM_OPTIONS (docs/runtime.md): LLVM code-generation options set for
the whole process. Each value keys its own cache entries (a process with
another value never reuses PTX compiled under the first), the compile log
writes the variable in front of the command that repeats the compile, and a
bad value fails the compile with an error naming it. The variable is read
once per process, so each case is a child process sharing one disk cache.
Stand-in driver and tensors, no GPU.
"""
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LN_COMPILE = os.environ.get("KILN_LN_COMPILE", "")
TMP = tempfile.mkdtemp(prefix="kiln-llvm-options-")

# A row sum over 4 warps: the warps' partials meet in shared memory, whose
# addresses are 32-bit unless -nvptx-short-ptr=false.
SOURCE = '''import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(x, axis=0))
'''

CHILD = '''
import sys
sys.path.insert(0, %(here)r)
from kilntest_common import FakeTensor
import kiln
k = kiln.jit(source=%(source)r, filename="row_sum.py").row_sum
x = FakeTensor(0x10000)
try:
    print(k.compile(x, x, 1000, BLOCK=1024, num_warps=4).ptx, end="")
except kiln.CompilationError as e:
    print("CompilationError:", e)
'''


def child(llvm_options=None, log=None):
    env = dict(os.environ, KILN_CACHE_DIR=os.path.join(TMP, "cache"),
               KILN_LOG="cache")
    env.pop("KILN_LLVM_OPTIONS", None)
    env.pop("KILN_DUMP_COMPILES", None)
    if llvm_options is not None:
        env["KILN_LLVM_OPTIONS"] = llvm_options
    if log:
        env["KILN_DUMP_COMPILES"] = log
    done = subprocess.run(
        [sys.executable, "-c", CHILD % {"here": HERE, "source": SOURCE}],
        env=env, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise AssertionError("child failed (%d): %s" % (done.returncode,
                                                        done.stderr))
    return done.stdout, done.stderr


class LlvmOptionsTest(unittest.TestCase):
    def test_each_value_has_its_own_cache_entries(self):
        plain, err = child()
        self.assertIn("compiled in", err)
        self.assertRegex(plain, r"st\.shared\.b32\s+\[%r\d+\]")
        log = os.path.join(TMP, "compiles.sh")
        wide, err = child("-nvptx-short-ptr=false", log)
        self.assertIn("compiled in", err)  # not the first process's entry
        self.assertRegex(wide, r"st\.shared\.b32\s+\[%rd\d+\]")
        again, err = child()
        self.assertNotIn("compiled in", err)  # a disk hit
        self.assertEqual(again, plain)
        again, err = child("-nvptx-short-ptr=false")
        self.assertNotIn("compiled in", err)
        self.assertEqual(again, wide)
        with open(log) as f:
            line = f.read().strip()
        self.assertTrue(line.startswith(
            "KILN_LLVM_OPTIONS=-nvptx-short-ptr=false ln-compile "), line)
        if os.path.exists(LN_COMPILE):
            argv = shlex.split(line)
            env = dict(os.environ)
            env[argv[0].split("=")[0]] = argv[0].split("=", 1)[1]
            done = subprocess.run([LN_COMPILE] + argv[2:], env=env,
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(done.stdout, wide)

    def test_a_bad_option_fails_the_compile_naming_it(self):
        out, _ = child("-disable-machine-sink -no-such-option")
        self.assertIn("CompilationError:", out)
        self.assertIn("KILN_LLVM_OPTIONS: `-no-such-option`: LLVM has no such "
                      "option in this build", out)
        out, _ = child("disable-machine-sink")
        self.assertIn("KILN_LLVM_OPTIONS: `disable-machine-sink` is not an "
                      "option (each starts with `-`", out)


if __name__ == "__main__":
    unittest.main()
