#!/usr/bin/env bash
# Session 28, call 6: mma.sync K loops refill the slot they just read (num_stages - 1 slots):
# mamba's SSD kernels per config against Triton, the dot / dot_scaled / block-pointer / descriptor
# families against Triton, mamba's op tests on Kiln.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
export TRITON_CACHE_DIR=/tmp/tc-mk
echo "== triton"; timeout 100 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-triton.json > $OUT/mk-triton.txt 2>&1; echo rc=$?
echo "== kiln"; KILN_CACHE_DIR=/tmp/kc-mk timeout 60 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-kiln.json > $OUT/mk-kiln.txt 2>&1; echo rc=$?
python3 - $OUT <<'PY'
import json, sys, math
o = sys.argv[1]
t = json.load(open(o + "/mk-triton.json"))["rows"]; k = json.load(open(o + "/mk-kiln.json"))["rows"]
geo = {}
for a, b in zip(t, k):
    ta, kb = a.get("kernel_us"), b.get("kernel_us")
    print("%-12s %-44s triton %7s kiln %7s %s" % (a["op"], a["config"], "%.1f" % ta if ta else "-",
          "%.1f" % kb if kb else b.get("error", "-")[:40], "%.2f" % (kb / ta) if ta and kb else ""))
    if ta and kb: geo.setdefault(a["op"], []).append(math.log(kb / ta))
print({op: round(math.exp(sum(v) / len(v)), 3) for op, v in geo.items()})
PY
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only dot,dotscaled,blockptr,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -8
ONLY=kiln KILN_CACHE_DIR=/tmp/kiln-cache timeout 140 test/gpu/run_mamba.sh $OUT/mamba 3 130 > $OUT/mamba.log 2>&1
tail -3 $OUT/mamba/mamba.txt; rm -rf $OUT/mamba/keep
rm -f $OUT/mk-*.txt; cd $OUT && tar czf call6.tgz *.txt *.json *.log mamba && rm -rf *.txt *.json *.log mamba
