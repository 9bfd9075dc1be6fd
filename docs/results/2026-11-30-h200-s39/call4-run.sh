#!/usr/bin/env bash
# Session 39, call 4: tail copies (the K loop's last iterations start the next tile's TMA copies).
# Tutorial 09's TMA and descriptor persistent kernels config by config under Kiln (fp8 and fp16,
# K = 512, each result checked against the naive kernel), the fp8 ones autotuned under Kiln and
# Triton, and compare_kernels' TMA and descriptor families.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
P="--per-config --sizes 8192x8192x512 --dtypes fp8,fp16 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kcp timeout 110 python3 -m kiln.run bench/tutorial09_bench.py $T09 $P > $OUT/cfg-kiln.jsonl 2> $OUT/cfg-kiln.err; echo "per-config kiln rc=$?"
python3 - $OUT/cfg-kiln.jsonl <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [r for r in rows if not r.get("ok")]
print(len(rows), "configs,", len(bad), "not ok", [r.get("error", "")[:80] for r in bad][:3])
for dt in ("fp8", "fp16"):
    for k in ("tma_persistent", "descriptor_persistent"):
        for sub in (False, True):
            rs = [r for r in rows if r["dtype"] == dt and r["kernel"] == k and r.get("ms") and
                  r["config"]["EPILOGUE_SUBTILE"] == sub]
            if rs:
                b = min(rs, key=lambda r: r["ms"])
                print(dt, k, "subtile" if sub else "whole", "best %.1f us" % (b["ms"] * 1e3),
                      {x: b["config"][x] for x in ("BLOCK_SIZE_N", "BLOCK_SIZE_K", "num_stages", "num_warps")})
PY
date -u >> $OUT/device.txt
A="--sizes 8192x8192x512 --dtypes fp8 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 60 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "t09 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc9 timeout 150 python3 bench/tutorial09_bench.py $T09 $A > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "t09 triton rc=$?"
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl | cut -c1-300
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -12
date -u >> $OUT/device.txt
