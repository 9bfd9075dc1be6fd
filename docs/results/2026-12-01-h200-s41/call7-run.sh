#!/usr/bin/env bash
# Session 41, call 7: index loads in stage 0 of the pipeliner (a870d0e: a page table read in the
# K loop runs ahead with the copies that need it; corpus PTX unchanged). compare_kernels' dot
# family (with the new dot_paged_kloop cases), lightllm under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error|paged" $r/compare.txt | cut -c1-220 | tail -10
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/ll-compare.txt | grep -v Memcpy | cut -c1-160
grep -i "flash_decode_stage1\|context" $r/ll-kiln.log | grep -v '^{' | cut -c1-200 | head -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
