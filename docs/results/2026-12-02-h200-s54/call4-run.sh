#!/usr/bin/env bash
# Session 54, call 4: Kiln's autotuner timings of fla's l2norm configs against do_bench
# and back-to-back times of the same configs (call4-tuner.py), under Kiln as it is (with its
# cache log) and with KILN_OCCUPANCY=off (no higher-occupancy build timed at first launches).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
s=docs/results/2026-12-02-h200-s54/call4-tuner.py
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc timeout 60 python3 -m kiln.run $s > $r/kiln-tuner.txt 2>&1; echo "kiln rc=$?"
KILN_OCCUPANCY=off KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run $s > $r/kiln-tuner-occupancy-off.txt 2>&1; echo "kiln off rc=$?"
date -u >> $r/device.txt
grep -v "^kiln:" $r/kiln-tuner.txt | tail -28; tail -28 $r/kiln-tuner-occupancy-off.txt
tar czf $OUT/results.tgz -C $OUT r
