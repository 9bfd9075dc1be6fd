"""Session 52: tutorial 03's matmul (examples/matmul/matmul.py) at 4096^3 fp16, where Kiln's
128 x 128 x 32 / 4 warps / 4 stages config ran at 0.92 of Triton's TFLOP/s.

  mm_probe.py dump OUT [CFG]           Triton's kernel for CFG: n_regs, spills, shared, PTX,
                                       TTGIR, cubin, SASS into OUT
  mm_probe.py time FILE[:SMEM]...      each PTX / cubin file loaded by the driver (PTX: the
                                       driver's JIT, as Kiln's runtime loads it) and timed
                                       (do_bench median, L2 flushed; MM_ROUNDS rounds that
                                       alternate over the files, TFLOP/s of the median
                                       round) on the same operands (MM_SIZE^3),
                                       its output NaN-poisoned and checked against torch;
                                       Kiln's PTX params are (a, b, c, M, N, K, sam, sbk,
                                       scm), Triton's the same plus its scratch pointers
  mm_probe.py ptxas OUT FILE...        FILE.ptx assembled by Triton's bundled ptxas into
                                       OUT/NAME.cubin and disassembled (OUT/NAME.sass)
  mm_probe.py run [CFG]                the kernel launched 5 times through `triton` (for ncu;
                                       under `python -m kiln.run` that is Kiln)
CFG = "BM,BN,BK,GROUP,stages,warps" (default 128,128,32,8,4,4).
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATH = os.path.join(ROOT, "examples", "matmul", "matmul.py")
S = int(os.environ.get("MM_SIZE", "4096"))
ROUNDS = int(os.environ.get("MM_ROUNDS", "1"))


def cfg_of(text):
    return tuple(int(x) for x in (text or "128,128,32,8,4,4").split(","))


def kernel():
    spec = importlib.util.spec_from_file_location("matmul_example", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.matmul_kernel


def operands():
    torch.manual_seed(0)
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    b = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c = torch.empty(S, S, device="cuda", dtype=torch.float16)
    return a, b, c


def launch(k, a, b, c, cfg):
    bm, bn, bk, g, s, w = cfg
    grid = (triton.cdiv(S, bm) * triton.cdiv(S, bn),)
    return k[grid](a, b, c, S, S, S, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                   c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                   GROUP_SIZE_M=g, ACTIVATION="", num_warps=w, num_stages=s)


def bindir():
    return os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")


def dump(out, cfg):
    os.makedirs(out, exist_ok=True)
    a, b, c = operands()
    kern = launch(kernel(), a, b, c, cfg)
    bm, bn, bk, g, st, w = cfg
    tag = f"triton-bm{bm}-bn{bn}-bk{bk}-s{st}-w{w}"
    print(json.dumps({"cfg": cfg, "n_regs": kern.n_regs, "n_spills": kern.n_spills,
                      "shared": kern.metadata.shared}))
    for key in ("ptx", "ttgir"):
        open(f"{out}/{tag}.{key}", "w").write(kern.asm[key])
    open(f"{out}/{tag}.cubin", "wb").write(kern.asm["cubin"])
    subprocess.run(f"{bindir()}/nvdisasm -c {out}/{tag}.cubin > {out}/{tag}.sass", shell=True)


def ptxas(out, files):
    os.makedirs(out, exist_ok=True)
    for p in files:
        base = os.path.join(out, os.path.basename(p).rsplit(".", 1)[0])
        r = subprocess.run([f"{bindir()}/ptxas", "-arch=sm_90a", "-v", p, "-o", base + ".cubin"],
                           capture_output=True, text=True)
        print(os.path.basename(p), r.stderr.strip().replace("\n", " | ")[-300:])
        subprocess.run(f"{bindir()}/nvdisasm -c {base}.cubin > {base}.sass", shell=True)


def param_kinds(ptx_text):
    entry = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx_text, re.S)
    return entry.group(1), re.findall(r"\.param\s+\.(u64|u32|b64|b32|s32)", entry.group(2))


def time_files(specs):
    import cupy as cp
    import numpy as np
    from triton.testing import do_bench
    a, b, c = operands()
    ref = torch.matmul(a, b)
    runs = []
    for spec in specs:
        path, _, smem = spec.partition(":")
        smem = int(smem or 0)
        ptx = open(path if path.endswith(".ptx") else path[:-6] + ".ptx").read()
        name, kinds = param_kinds(ptx)
        block = int(re.search(r"\.(?:maxntid|reqntid)\s+(\d+)", ptx).group(1))
        fn = cp.RawModule(path=path).get_function(name)
        fn.max_dynamic_shared_size_bytes = smem
        fn.preferred_shared_memory_carveout = 100
        ints = [S, S, S, S, S, S]
        args, ptrs = [], [a, b, c]
        for kind in kinds:
            if kind in ("u64", "b64"):
                args.append(np.uint64(ptrs.pop(0).data_ptr() if ptrs else 0))
            else:
                args.append(np.int32(ints.pop(0)))
        bm = int(re.search(r"bm(\d+)", os.path.basename(path)).group(1))
        bn = int(re.search(r"bn(\d+)", os.path.basename(path)).group(1))
        grid = (S // bm) * (S // bn)
        run = (lambda fn, grid, block, args, smem:
               lambda: fn((grid,), (block,), tuple(args), shared_mem=smem))(fn, grid, block, args, smem)
        c.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        err = (c.float() - ref.float()).abs().max().item()
        runs.append((os.path.basename(path), fn.num_regs, smem, err, run, []))
    # Rounds alternate over the files: a drift of the clocks falls on all alike.
    for _ in range(ROUNDS):
        for *_, run, ms in runs:
            ms.append(do_bench(run, warmup=25, rep=200))
    for name, regs, smem, err, run, ms in runs:
        print(json.dumps({"file": name, "size": S, "regs": regs, "smem": smem, "err": err,
                          "ms": ms, "tflops": 2 * S**3 / sorted(ms)[len(ms) // 2] / 1e9}),
              flush=True)


def main():
    cmd = sys.argv[1]
    if cmd == "dump":
        dump(sys.argv[2], cfg_of(sys.argv[3] if len(sys.argv) > 3 else None))
    elif cmd == "ptxas":
        ptxas(sys.argv[2], sys.argv[3:])
    elif cmd == "time":
        time_files(sys.argv[2:])
    elif cmd == "run":
        cfg = cfg_of(sys.argv[2] if len(sys.argv) > 2 else None)
        k = kernel()
        a, b, c = operands()
        for _ in range(5):
            launch(k, a, b, c, cfg)
        torch.cuda.synchronize()
        err = (c.float() - torch.matmul(a, b).float()).abs().max().item()
        print("err", err)


main()
