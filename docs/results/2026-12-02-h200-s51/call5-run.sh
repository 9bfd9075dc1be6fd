#!/usr/bin/env bash
# Session 51, call 5, the final code (d7b5d1b: wgmmas issued block by block, products always in
# flight): compare_kernels' dot family against Triton (every dot lowering's order changed where
# a warp group holds two 64-row blocks); the attention forward by pointers at BLOCK_M 128 on 4
# warps (ptxas: 1540 -> 100 bytes of spills at HEAD_DIM 128) and tutorial 03's matmul at its
# BLOCK_M 128 4-warp configs, each under Triton, Kiln at c85b9eb (A) and Kiln now.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 200 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1; echo "compare dot rc=$?"
grep -E "^FAIL|passed, " $r/compare-dot.txt | cut -c1-220 | tail -8
date -u >> $r/device.txt
A=.ext/tools/attn_ptr_ab.py
F="D64 C0 BM128 BN64 s2 w4,D64 C0 BM128 BN64 s3 w4,D64 C0 BM128 BN128 s2 w4,D64 C0 BM128 BN128 s3 w4,D64 C1 BM128 BN64 s2 w4,D64 C1 BM128 BN64 s3 w4,D64 C1 BM128 BN128 s2 w4,D64 C1 BM128 BN128 s3 w4,D128 C0 BM128 BN64 s2 w4,D128 C0 BM128 BN64 s3 w4,D128 C0 BM128 BN128 s2 w4,D128 C0 BM128 BN128 s3 w4,D128 C1 BM128 BN64 s2 w4,D128 C1 BM128 BN64 s3 w4,D128 C1 BM128 BN128 s2 w4,D128 C1 BM128 BN128 s3 w4"
TRITON_CACHE_DIR=/tmp/tc-p timeout 100 python3 $A "$F" > $r/ptr-triton.jsonl 2>&1; echo "ptr triton rc=$?"
for round in 1 2; do
  KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kp-A timeout 60 python3 -m kiln.run $A "$F" > $r/ptr-A-$round.jsonl 2>&1; echo "ptr A rc=$?"
  KILN_CACHE_DIR=/tmp/kp-N timeout 60 python3 -m kiln.run $A "$F" > $r/ptr-N-$round.jsonl 2>&1; echo "ptr now rc=$?"
done
date -u >> $r/device.txt
M="128,128,32,8,4,4;128,64,32,8,4,4;128,32,32,8,4,4"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/km-A timeout 100 python3 bench/matmul_bench.py --sizes 4096 --configs "$M" --json $r/mm-A.json > $r/mm-A.txt 2>&1; echo "matmul A rc=$?"
KILN_CACHE_DIR=/tmp/km-N timeout 100 python3 bench/matmul_bench.py --sizes 4096 --configs "$M" --json $r/mm-N.json > $r/mm-N.txt 2>&1; echo "matmul now rc=$?"
tail -12 $r/mm-A.txt; tail -12 $r/mm-N.txt
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys, math
r = sys.argv[1]
def load(name):
    out = {}
    try:
        for line in open(f"{r}/{name}.jsonl"):
            if line.startswith("{"):
                x = json.loads(line)
                out[x["cfg"]] = x
    except FileNotFoundError:
        pass
    return out
tri = load("ptr-triton")
runs = {v: [load(f"ptr-{v}-{k}") for k in (1, 2)] for v in "AN"}
logs = {v: [] for v in runs}
print("%-30s %9s %9s %9s  N/A   err(N)" % ("config", "triton", "A", "now"))
for c in tri:
    t = tri[c].get("us")
    row = [min((x[c]["us"] for x in runs[v] if c in x and x[c].get("us")), default=None) for v in runs]
    errs = [x[c].get("err", x[c].get("error")) for x in runs["N"] if c in x]
    print("%-30s %9s %9s %9s  %s  %s" % (c, t, row[0], row[1], "%.3f" % (row[1] / row[0]) if all(row) else "-", errs))
    if t and all(row):
        for v, u in zip(runs, row):
            logs[v].append(math.log(u / t))
for v in runs:
    if logs[v]:
        print("ptr geomean Kiln %s / Triton: %.3f over %d" % (v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
PY
tar czf $OUT/results.tgz -C $OUT r
