#!/usr/bin/env bash
# Session 39, call 3: dead loop-carried values dropped before pipelining (the backward's M and D
# loads copied into slots). Tutorial 06's backward (16 shapes) under Triton and Kiln, the
# tutorial's pytest, compare_kernels' dot family (new case dot_carried_offsets_kloop), ncu of the
# backward at HEAD_DIM 128 under both. Everything small is tarred into one file.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
R=$OUT/r; mkdir -p $R
nvidia-smi -L > $R/device.txt; date -u >> $R/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 90 python3 -m kiln.run bench/tutorial06_bench.py --modes bwd --json $R/t06-kiln.json > $R/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc6 timeout 150 python3 bench/tutorial06_bench.py --modes bwd --json $R/t06-triton.json > $R/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $R/device.txt
python3 - $R/t06-triton.json $R/t06-kiln.json <<'PY'
import json, math, sys
t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(sys.argv[1]))}
k = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(sys.argv[2]))}
groups = {}
for key in sorted(t):
    a, b = t[key].get("tflops"), k.get(key, {}).get("tflops")
    print(key, round(a or 0, 1), round(b or 0, 1), round(b / a, 3) if a and b else k.get(key, {}).get("error", "")[:100])
    if a and b:
        groups.setdefault(key[:2], []).append(b / a)
for g, v in groups.items():
    print(g, "geomean", round(math.exp(sum(map(math.log, v)) / len(v)), 3), "min", round(min(v), 3))
PY
(KILN_CACHE_DIR=/tmp/kc6p timeout 100 python3 -m kiln.run -m pytest -x -q .ext/triton-tutorials/06-fused-attention.py -k "128-2-1 or 1024-2-1 or 4096-2-1" > $R/t06-pytest.txt 2>&1; echo "t06 pytest rc=$?"); tail -1 $R/t06-pytest.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 test/gpu/compare_kernels.py --only dot > $R/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |carried" $R/compare.txt | cut -c1-200 | tail -8
date -u >> $R/device.txt
T06=$PWD/.ext/triton-tutorials/06-fused-attention.py
S=docs/results/2026-11-30-h200-s39/t06_bwd_one.py
NCU="ncu --kernel-name regex:_attn_bwd$ --launch-skip 2 --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SourceCounters"
TRITON_CACHE_DIR=/tmp/tc timeout 100 $NCU python3 $S $T06 128 4096 > $R/ncu-triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 80 $NCU python3 -m kiln.run $S $T06 128 4096 > $R/ncu-kiln.txt 2>&1; echo "ncu kiln rc=$?"
date -u >> $R/device.txt
for w in triton kiln; do echo "== $w"; grep -E "Duration|Executed Instructions  |Elapsed Cycles|Spilling Requests  |Warp Cycles Per Issued|Issue Slots Busy" $R/ncu-$w.txt | head -8; done
tar czf $OUT/call3.tgz -C $R .
