#!/usr/bin/env bash
# Session 41, call 6: the final code (f61c5a1: the SLP vectorizer reverted; corpus PTX identical
# to call 3's). compare_kernels' families call 4 did not reach (sort, tma) and layernorm_fast,
# lightllm under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 200 python3 test/gpu/compare_kernels.py --only sort,tma,layernorm_fast > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error" $r/compare.txt | cut -c1-220 | tail -8
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/ll-compare.txt | grep -v Memcpy | cut -c1-160
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
