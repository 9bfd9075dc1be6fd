#!/usr/bin/env bash
# Session 44, call 6: the final code against Triton on the compare_kernels families not run since
# the fence change: dotscaled (tl.dot_scaled loops), map_elementwise, atomics, sort.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 170 python3 test/gpu/compare_kernels.py --only dotscaled,mapelem,atomics,sort > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
