#!/usr/bin/env bash
# Session 54, call 4: Kiln's autotuner timings of fla's l2norm configs against do_bench
# and back-to-back times of the same configs (call4-tuner.py), under Kiln then Triton.
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
KILN_CACHE_DIR=/tmp/kc timeout 80 python3 -m kiln.run $s > $r/kiln-tuner.txt 2>&1; echo "kiln rc=$?"

TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 $s > $r/triton-tuner.txt 2>&1; echo "triton rc=$?"
date -u >> $r/device.txt
tail -30 $r/kiln-tuner.txt $r/triton-tuner.txt
tar czf $OUT/results.tgz -C $OUT r
