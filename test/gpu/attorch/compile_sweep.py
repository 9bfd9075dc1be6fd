"""Compiles every launched @triton.jit kernel of attorch through Kiln's
compiler, without torch or a GPU (compile-only, for sm_90), and prints one
line per kernel plus failures grouped by their first error line.

    PYTHONPATH=python KILN_LIBRARY=build/lib/libkiln.so \
        python3 test/gpu/attorch/compile_sweep.py [ATTORCH_DIR]

ATTORCH_DIR defaults to /work/main/.ext/attorch (git-ignored, its COMMIT file
names the commit). Kernels are the @triton.jit functions with pointer
parameters (`*_pointer`, Q/K/V/Out...); jit helpers are compiled through
them. Argument values are plausible stand-ins: fp32 tensors for pointers,
floats for probabilities/eps/scales, 64 for other ints (so neither `:16`
specialization nor the constant 1 hides anything), and per-name constexpr
values (block sizes 32, act_func 'relu', flags False, ...) close to what
attorch's heuristics pick; the real values come from its layers on the
device run (run_sample.py).
"""
import collections
import ctypes
import os
import re
import sys
import time

import kiln
from kiln import _jit

ROOT = sys.argv[1] if len(sys.argv) > 1 else "/work/main/.ext/attorch"

FLOATS = re.compile(r"(^p$|drop_p|eps|momentum|scale|param|^alpha|^beta|"
                    r"label_smoothing|negative_slope)", re.I)
POINTERS = re.compile(r"(pointer|_ptr$|^(Q|K|V|Out|DO|DQ|DK|DV|L|M|D|"
                      r"NewDO|Delta|LSE)$)")
CONSTEXPRS = {
    "act_func": "relu", "reduction": "mean", "p_loss": 2,
    "D_HEAD": 64, "BLOCK_DMODEL": 64, "groups": 1, "kernel_height": 3,
    "kernel_width": 3, "stride_height": 1, "stride_width": 1,
    "padding_height": 1, "padding_width": 1, "fp16": False,
}


class Tensor:
    """What the compile path reads of a tensor (no data)."""

    def __init__(self, address, dtype="torch.float32"):
        self._address = address
        self.dtype = dtype
        self.device = "cuda:0"

    def data_ptr(self):
        return self._address

    def element_size(self):
        return 4

    def numel(self):
        return 1 << 20


def constexpr_value(name, default):
    if name in CONSTEXPRS:
        return CONSTEXPRS[name]
    if default is not None:
        return default
    if name.upper().startswith("BLOCK"):
        return 32
    if name.upper() == name and "SIZE" not in name:
        return False  # flags such as CAUSAL, SEQUENCE_PARALLEL
    return False


def kernel_names(path):
    """The launched kernels: @triton.jit functions with pointer parameters
    that no other function of the file calls (a called one is a helper,
    whose parameters may be block pointers a launch cannot pass; it is
    compiled through its caller)."""
    src = re.sub(r"#[^\n]*", "", open(path).read())
    names = []
    for m in re.finditer(r"@triton\.jit[^\n]*\n(?:@[^\n]*\n)*def (\w+)\((.*?)\):",
                         src, re.S):
        params = m.group(2)
        called = re.search(r"(?<![\w.])%s\s*\(" % m.group(1),
                           src[:m.start()] + src[m.end():])
        if not called and any(POINTERS.search(
                q.split(":")[0].split("=")[0].strip())
                for q in params.split(",")):
            names.append(m.group(1))
    return names


def main():
    pkg = os.path.join(ROOT, "attorch")
    results = []
    address = 0x10000
    for fname in sorted(os.listdir(pkg)):
        if not fname.endswith(".py"):
            continue
        path = os.path.join(pkg, fname)
        names = kernel_names(path)
        if not names:
            continue
        try:
            module = _jit.Module(path=path, ignore_decorators=True,
                                 include_dirs=[ROOT])
        except kiln.KilnError as e:
            for n in names:
                results.append((fname, n, False, str(e), 0.0))
            continue
        for n in names:
            try:
                k = module[n]
                args = []
                for p in k.arg_names:
                    if POINTERS.search(p):
                        # Class indices (nll / cross-entropy targets): int64.
                        args.append(Tensor(address, "torch.int64" if "target"
                                           in p else "torch.float32"))
                        address += 0x10000
                    elif FLOATS.search(p):
                        args.append(0.5)
                    else:
                        args.append(64)
                cx = {c: constexpr_value(c, d) for c, d in k.constexprs.items()}
                cx = {c: v for c, v in cx.items()}
                t0 = time.perf_counter()
                k.compile(*args, arch="sm_90", **cx)
                results.append((fname, n, True, "", time.perf_counter() - t0))
            except kiln.KilnError as e:
                results.append((fname, n, False, str(e), 0.0))
    ok = sum(r[2] for r in results)
    for fname, n, passed, err, secs in results:
        print("%-4s %-34s %-40s %s" % ("ok" if passed else "FAIL", fname, n,
                                       "%.0f ms" % (secs * 1e3) if passed else
                                       err.splitlines()[0][:160]))
    print("\n%d/%d kernels compile (%.0f%%)" % (ok, len(results),
                                              100.0 * ok / max(1, len(results))))
    causes = collections.Counter()
    for r in results:
        if not r[2]:
            line = r[3].splitlines()[0]
            causes[re.sub(r"^.*?error: ", "", line)[:120]] += 1
    for cause, count in causes.most_common():
        print("%3d  %s" % (count, cause))


if __name__ == "__main__":
    main()
