#!/usr/bin/env bash
# Session 33, call 3: as call 2 after the dot-scratch fix (no scratch reserved for a K^T that
# wgmma reads from its TMA slot: 116 -> 97 KB at 128 x 64, 2 programs per SM). Every config forced
# under both compilers (HEAD_DIM 64 and 128, N_CTX 4096, not causal); ncu of HEAD_DIM 128 at
# 64 x 64 on 4 warps, 3 stages (0.70 of Triton in call 2, 462 TFLOP/s with cp.async) under both.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
B="bench/tutorial06_bench.py --modes fwd --causal no --n-ctx 4096"
TRITON_CACHE_DIR=/tmp/tcp timeout 200 python3 $B --per-config --json $OUT/pc-triton.json > $OUT/pc-triton.txt 2>&1; echo "triton rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kcp timeout 120 python3 -m kiln.run $B --per-config --json $OUT/pc-kiln.json > $OUT/pc-kiln.txt 2>&1; echo "kiln rc=$?"
date -u >> $OUT/device.txt
NCU="ncu --kernel-name regex:_attn_fwd --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis_Tables"
TRITON_CACHE_DIR=/tmp/tcp timeout 90 $NCU python3 $B --head-dims 128 --config 64,64,3,4 > $OUT/ncu-triton-128.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kcp timeout 90 $NCU python3 -m kiln.run $B --head-dims 128 --config 64,64,3,4 > $OUT/ncu-kiln-128.txt 2>&1; echo "ncu kiln rc=$?"
date -u >> $OUT/device.txt
python3 - $OUT <<'PY'
import json, sys
d = sys.argv[1]
def rows(f):
    try:
        return {(r["head_dim"], tuple((r.get("config") or {}).values())): r for r in json.load(open(d + f))}
    except Exception as e:
        print("no", f, e); return {}
t, k = rows("/pc-triton.json"), rows("/pc-kiln.json")
for key in sorted(set(t) | set(k), key=str):
    a, b = t.get(key, {}), k.get(key, {})
    r = b["tflops"] / a["tflops"] if "tflops" in a and "tflops" in b else float("nan")
    print(key, "triton %.1f" % a.get("tflops", float("nan")), "kiln %.1f" % b.get("tflops", float("nan")), "k/t %.2f" % r)
PY
for f in ncu-triton-128 ncu-kiln-128; do
  echo "== $f"; grep -E "Duration|Registers Per|Executed Instructions  |Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Block Limit Registers|Block Limit Shared|Dynamic Shared" $OUT/$f.txt | head -12
done
