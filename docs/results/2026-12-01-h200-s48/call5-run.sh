#!/usr/bin/env bash
# Session 48, call 5 (a56aed3, the final code): Liger-Kernel's own op tests (26 files, every
# 10th parametrization, test/gpu/run_liger.sh) under Kiln, a broad check of the session's three
# code-generation changes on kernels nobody wrote for them (session 19: 214 passed, 0 failed).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
ONLY=kiln timeout 280 test/gpu/run_liger.sh $r/lg 10 250 > $r/liger-run.txt 2>&1; echo "liger rc=$?"
grep -E "passed|failed|FAIL" $r/liger-run.txt | cut -c1-220 | tail -12
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
