#!/usr/bin/env bash
# Session 49, call 2 (270764a, the final code generation): Liger-Kernel's own op tests (26
# files, every 10th parametrization, test/gpu/run_liger.sh) and test_mlp.py -k llamamlp under
# Kiln: the session's changes (shared mbarriers, epilogue tiles converted at their loads and
# staged through one slot) on kernels nobody wrote for them (session 48: 214 passed, 0 failed).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
ONLY=kiln timeout 300 test/gpu/run_liger.sh $r/lg 10 250 > $r/liger-run.txt 2>&1; echo "liger rc=$?"
grep -E "passed|failed|FAIL" $r/liger-run.txt | cut -c1-220 | tail -12
date -u >> $r/device.txt
mkdir -p $r/mlp
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 120 \
  --keep $r/mlp/keep --files test/transformers/test_mlp.py -- -k llamamlp > $r/mlp-tests.txt 2>&1; echo "mlp tests rc=$?"
grep -E "passed|FAIL" $r/mlp-tests.txt | cut -c1-220 | head -6
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
