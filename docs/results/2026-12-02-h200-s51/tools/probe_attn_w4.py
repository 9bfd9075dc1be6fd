"""Triton's code for the attention forward (attn_epilogue_ab.py's kernel) at HEAD_DIM 128,
128 x 128 blocks, 4 warps, 2 and 3 stages: registers, spills, PTX, TTGIR and SASS into argv[1];
Kiln's PTX of the same configs (probe/*.ptx) assembled and disassembled with Triton's bundled
ptxas / nvdisasm. Session 51."""
import glob, os, subprocess, sys
import torch, triton
from triton.tools.tensor_descriptor import TensorDescriptor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util
spec = importlib.util.spec_from_file_location("ab", os.path.join(os.path.dirname(os.path.abspath(__file__)), "attn_epilogue_ab.py"))
src = open(spec.origin).read().replace("\nmain()\n", "\n")
ab = {}
exec(compile(src, spec.origin, "exec"), ab)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
Z, H, N, D, BM, BN = 4, 32, 4096, 128, 128, 128
q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
o = torch.empty_like(q)
m = torch.empty(Z, H, N, device="cuda", dtype=torch.float32)
rows = Z * H * N
d = [TensorDescriptor(t, [rows, D], [D, 1], [bm, D]) for t, bm in ((q, BM), (k, BN), (v, BN), (o, BM))]
bindir = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
print("bin:", os.listdir(bindir))
for s in (2, 3):
    kern = ab["attn_fwd"][(N // BM, Z * H)](*d, m, 0.5, N, HEAD_DIM=D, BM=BM, BN=BN, num_warps=4, num_stages=s)
    print(f"triton s{s}: n_regs {kern.n_regs} n_spills {kern.n_spills} shared {kern.metadata.shared}")
    for key in ("ptx", "ttgir"):
        open(f"{out}/triton-s{s}.{key}", "w").write(kern.asm[key])
    open(f"{out}/triton-s{s}.cubin", "wb").write(kern.asm["cubin"])
    subprocess.run(f"{bindir}/nvdisasm -c {out}/triton-s{s}.cubin > {out}/triton-s{s}.sass", shell=True)
for p in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe", "*.ptx"))):
    base = os.path.join(out, os.path.basename(p)[:-4])
    r = subprocess.run([f"{bindir}/ptxas", "-arch=sm_90a", "-v", p, "-o", base + ".cubin"], capture_output=True, text=True)
    print(os.path.basename(p), r.stderr.strip().replace("\n", " | ")[-300:])
    subprocess.run(f"{bindir}/nvdisasm -c {base}.cubin > {base}.sass", shell=True)
