#!/usr/bin/env bash
# Session 41, call 8: the final code (7be8fb9 / 16afd19: pinned loads counted by distinct elements,
# atomics convert only a pinned load's value). compare_kernels' atomics family, the corpus's
# atomic kernels, lightllm under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 80 python3 test/gpu/compare_kernels.py --only atomics > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error" $r/compare.txt | cut -c1-220 | tail -6
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 80 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/ll-compare.txt | grep -v Memcpy | cut -c1-160
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
