#!/usr/bin/env bash
# Session 39, call 2: the second of two sequential pipelined loops gets the bytes of the first's
# dead slots (slotBudgetBytes counts only live buffers): tutorial 06's backward dQ loop is now
# pipelined at HEAD_DIM 128. Tutorial 06's whole benchmark (32 shapes) under Triton and Kiln,
# the tutorial's own pytest under Kiln.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 120 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 200 python3 bench/tutorial06_bench.py --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $OUT/device.txt
python3 - $OUT/t06-triton.json $OUT/t06-kiln.json <<'PY'
import json, math, sys
t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(sys.argv[1]))}
k = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(sys.argv[2]))}
groups = {}
for key in sorted(t):
    a, b = t[key].get("tflops"), k.get(key, {}).get("tflops")
    print(key, a, b, round(b / a, 3) if a and b else k.get(key, {}).get("error", "")[:100])
    if a and b:
        groups.setdefault(key[:2], []).append(b / a)
for g, v in groups.items():
    print(g, "geomean", round(math.exp(sum(map(math.log, v)) / len(v)), 3), "min", round(min(v), 3))
PY
(KILN_CACHE_DIR=/tmp/kc6p timeout 150 python3 -m kiln.run -m pytest -x -q .ext/triton-tutorials/06-fused-attention.py -k "128-2-1 or 1024-2-1 or 4096-2-1" > $OUT/t06-pytest.txt 2>&1; echo "t06 pytest rc=$?"); tail -3 $OUT/t06-pytest.txt
date -u >> $OUT/device.txt
