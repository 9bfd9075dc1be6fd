#!/usr/bin/env bash
# Session 32, call 2: why the fused-attention tutorial's forward runs at 0.61-0.89 of Triton on
# Kiln (call 1). Every config of its autotune list forced in turn under both compilers (HEAD_DIM
# 64 and 128, N_CTX 4096, not causal); Triton's TTGIR and PTX of those configs; ncu of Triton's
# best config at each head dim under both.
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
(cd /tmp/tcp && find . \( -name "*.ttgir" -o -name "*.ptx" -o -name "*.json" \) | tar czf $OUT/triton-cache.tgz -T -)
NCU="ncu --kernel-name regex:_attn_fwd --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats"
for spec in "64 64,64,2,4" "128 128,64,2,4"; do
  set -- $spec
  TRITON_CACHE_DIR=/tmp/tcp timeout 90 $NCU python3 $B --head-dims $1 --config $2 > $OUT/ncu-triton-$1.txt 2>&1; echo "ncu triton $1 rc=$?"
  KILN_CACHE_DIR=/tmp/kcp timeout 90 $NCU python3 -m kiln.run $B --head-dims $1 --config $2 > $OUT/ncu-kiln-$1.txt 2>&1; echo "ncu kiln $1 rc=$?"
done
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
