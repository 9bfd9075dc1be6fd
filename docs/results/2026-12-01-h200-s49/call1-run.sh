#!/usr/bin/env bash
# Session 49, call 1 (270764a): one mbarrier per pipelined iteration's TMA blocks; epilogue
# tiles converted at their loads and staged through one slot (TMA / cp.async) into the
# accumulator's layout. compare_kernels desc / tma / ragged / dot against Triton (new
# tma_mm_swiglu_bwd cases); compute-sanitizer racecheck + synccheck of the new epilogue and of
# a TMA matmul under Kiln; Liger's dGU / dI / forward per config and the MLP op under both;
# ncu summary of dGU under both.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 300 python3 test/gpu/compare_kernels.py --only desc,tma,ragged,dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
date -u >> $r/device.txt
cat > /tmp/san.py <<'PY'
import sys, torch, triton
sys.path.insert(0, "test/gpu")
import tma_kernels as k
from triton.tools.tensor_descriptor import TensorDescriptor
M, N, K = 200, 136, 300
for T in (torch.bfloat16,):
    for BM, BN, BK, nw in ((128, 128, 64, 8), (64, 64, 32, 4), (64, 64, 64, 2)):
        a = torch.randn(M, 304, device="cuda", dtype=T); b = torch.randn(K, 136, device="cuda", dtype=T)
        g = torch.randn(M, 136, device="cuda", dtype=T); u = torch.randn(M, 136, device="cuda", dtype=T)
        dg = torch.empty_like(g); du = torch.empty_like(u)
        ad = TensorDescriptor(a, [M, K], [304, 1], [BM, BK]); bd = TensorDescriptor(b, [K, N], [136, 1], [BK, BN])
        gd = TensorDescriptor(g, [M, N], [136, 1], [BM, BN]); ud = TensorDescriptor(u, [M, N], [136, 1], [BM, BN])
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        for desc in (True, False):
            k.tma_mm_swiglu_bwd[grid](ad, bd, gd, ud, g, u, dg, du, M, N, K, BM=BM, BN=BN, BK=BK,
                                      DESC=desc, num_warps=nw, num_stages=3)
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        k.tma_mm[grid](ad, bd, c, M, N, K, BM=BM, BN=BN, BK=BK, SHIFT=0, num_warps=nw, num_stages=3)
torch.cuda.synchronize(); print("ok")
PY
for tool in racecheck synccheck; do
  KILN_CACHE_DIR=/tmp/kc1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m kiln.run /tmp/san.py > $r/san-$tool.txt 2>&1; echo "sanitize $tool rc=$?"; tail -2 $r/san-$tool.txt
done
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
TRITON_CACHE_DIR=/tmp/tc2 timeout 150 python3 .ext/tools/liger_configs.py dI,fwd,dGU BM128 > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger cfg triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 150 python3 -m kiln.run .ext/tools/liger_configs.py dI,fwd,dGU BM128 > $r/lg-kiln.jsonl 2> $r/lg-kiln.err; echo "liger cfg kiln rc=$?"
python3 - $r <<'PY'
import json, sys
r = sys.argv[1]
def load(p):
    out = {}
    for line in open(p):
        if line.startswith("{"):
            x = json.loads(line); out[(x["kernel"], x["cfg"])] = x["us"]
    return out
t, k = load(r + "/lg-triton.jsonl"), load(r + "/lg-kiln.jsonl")
for key in t:
    a, b = t[key], k.get(key)
    if a and b:
        print("%-4s %-28s triton %9.1f kiln %9.1f ratio %.3f" % (key[0], key[1], a, b, b / a))
for name in ("dI", "fwd", "dGU"):
    try:
        bt = min((v, c) for (n, c), v in t.items() if n == name and v)
        bk = min((v, c) for (n, c), v in k.items() if n == name and v)
        print("best %s: triton %.1f (%s) kiln %.1f (%s) ratio %.3f" % (name, bt[0], bt[1], bk[0], bk[1], bk[0] / bt[0]))
    except ValueError:
        pass
PY
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc3 timeout 90 python3 bench/liger_bench.py --only mlp --out $r/mlp-triton.json > $r/mlp-triton.txt 2>&1; echo "mlp triton rc=$?"
KILN_CACHE_DIR=/tmp/kc3 timeout 90 python3 -m kiln.run bench/liger_bench.py --only mlp --out $r/mlp-kiln.json > $r/mlp-kiln.txt 2>&1; echo "mlp kiln rc=$?"
python3 bench/liger_bench.py --compare $r/mlp-triton.json $r/mlp-kiln.json > $r/mlp-compare.txt 2>&1
cut -c1-180 $r/mlp-compare.txt | head -14
date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis"
TRITON_CACHE_DIR=/tmp/tc2 timeout 60 $NCU -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 .ext/tools/liger_configs.py dGU > $r/ncu-triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 60 $NCU -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 -m kiln.run .ext/tools/liger_configs.py dGU > $r/ncu-kiln.txt 2>&1; echo "ncu kiln rc=$?"
for w in triton kiln; do echo "== $w"; grep -E "Duration|Registers Per|Executed Instructions  |Local Memory Spilling Requests  |DRAM Throughput|Compute \(SM\) Throughput" $r/ncu-$w.txt | head -10; done 2>&1 | tee $r/ncu-summary.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
