"""Dump the PTX Triton 3.6 generates for a kernel launch, to compare with Kiln's (ln-compile).

    python3 test/gpu/triton_ptx.py FILE KERNEL 'ARGS' ['META'] -o OUT.ptx

ARGS is a Python expression evaluated with torch in scope giving the argument list (tensors on
cuda); META a dict of constexprs (num_warps too); the grid is (1,). Prints the registers and
spills ptxas gave the kernel; --ttgir also writes the TritonGPU IR. Used to find why a comparison case differs.
"""
import argparse
import importlib.util
import os

import torch  # noqa: F401  (used by the evaluated expressions)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("kernel")
    ap.add_argument("args")
    ap.add_argument("meta", nargs="?", default="{}")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--ttgir", help="also write Triton's TritonGPU IR here")
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location(os.path.basename(a.file)[:-3], a.file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    compiled = getattr(mod, a.kernel)[(1,)](*eval(a.args), **eval(a.meta))
    with open(a.output, "w") as f:
        f.write(compiled.asm["ptx"])
    if a.ttgir:
        with open(a.ttgir, "w") as f:
            f.write(compiled.asm["ttgir"])
    print(f"{a.kernel}: {len(compiled.asm['ptx'])} bytes of PTX -> {a.output}; "
          f"{compiled.n_regs} registers, {compiled.n_spills} spilled")


if __name__ == "__main__":
    main()
