#!/usr/bin/env bash
# Session 38, call 2: tutorial 09's fp8 TMA and descriptor persistent kernels config by config
# (K = 512, each of the 48 configs of each kernel alone) under Kiln at this commit and under
# Triton, then RuntimeGpuTests (call 1 stopped it at its 80 s limit).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
A="--per-config --sizes 8192x8192x512 --dtypes fp8 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 90 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/cfg-kiln.jsonl 2> $OUT/cfg-kiln.err; echo "kiln rc=$?"
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc9 timeout 230 python3 bench/tutorial09_bench.py $T09 $A > $OUT/cfg-triton.jsonl 2> $OUT/cfg-triton.err; echo "triton rc=$?"
date -u >> $OUT/device.txt
wc -l $OUT/*.jsonl
python3 - $OUT <<'PY'
import json, sys
rows = {}
for who in ("kiln", "triton"):
    for line in open(f"{sys.argv[1]}/cfg-{who}.jsonl"):
        r = json.loads(line)
        c = r.get("config", {})
        key = (r["kernel"], c.get("BLOCK_SIZE_N"), c.get("BLOCK_SIZE_K"), c.get("num_stages"),
               c.get("num_warps"), c.get("EPILOGUE_SUBTILE"))
        rows.setdefault(key, {})[who] = (r.get("ms"), r.get("ok"), r.get("error", "")[:60])
for key in sorted(rows, key=str):
    k, t = rows[key].get("kiln"), rows[key].get("triton")
    ratio = t[0] / k[0] if k and t and k[0] and t[0] else None
    print(key, "kiln", k, "triton", t, "T/K %.3f" % ratio if ratio else "")
PY
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; grep -E "PASSED|FAILED" $OUT/gtest-gpu.txt | head
date -u >> $OUT/device.txt
