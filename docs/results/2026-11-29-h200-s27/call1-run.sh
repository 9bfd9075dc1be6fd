#!/usr/bin/env bash
# Session 27, call 1: dot operands computed in their fragment registers
# (--tile-register-dot-operands): the dot family against Triton (new cases), mamba's
# SSD kernels per config under Triton and under Kiln with the pass off / A only / A and B,
# mamba's op tests on Kiln.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
export TRITON_CACHE_DIR=/tmp/tc-mk
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 200 python3 test/gpu/compare_kernels.py --only dot > $OUT/compare-dot.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-dot.txt | tail -8
echo "== triton"; timeout 100 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-triton.json > $OUT/mk-triton.txt 2>&1; echo rc=$?
for mode in off a ab; do
  case $mode in off) e=KILN_NO_REGDOT=1;; a) e=KILN_REGDOT_NO_B=1;; ab) e=KILN_X=1;; esac
  echo "== kiln $mode"; env $e KILN_CACHE_DIR=/tmp/kc-$mode timeout 60 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-kiln-$mode.json > $OUT/mk-kiln-$mode.txt 2>&1; echo rc=$?
done
python3 - $OUT <<'PY'
import json, sys
o = sys.argv[1]
t = json.load(open(o + "/mk-triton.json"))["rows"]
ks = {m: json.load(open(o + "/mk-kiln-%s.json" % m))["rows"] for m in ("off", "a", "ab")}
print("%-12s %-44s %7s %7s %7s %7s" % ("op", "config", "triton", "off", "a", "ab"))
for i, a in enumerate(t):
    f = lambda r: "%.1f" % r["kernel_us"] if r.get("kernel_us") else "-"
    print("%-12s %-44s %7s %7s %7s %7s" % (a["op"], a["config"], f(a), *(f(ks[m][i]) for m in ("off", "a", "ab"))))
PY
ONLY=kiln KILN_CACHE_DIR=/tmp/kiln-cache timeout 150 test/gpu/run_mamba.sh $OUT/mamba 3 140 > $OUT/mamba.log 2>&1
tail -4 $OUT/mamba/mamba.txt; rm -rf $OUT/mamba/keep
