#!/usr/bin/env bash
# Session 40, call 8: the final code (butterfly reductions only at 16+ warps: corpus PTX identical
# to the session's start). compare_kernels' scan family with the new 16 / 32-warp reduction cases,
# Liger's operators under both compilers, the corpus against Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 90 python3 test/gpu/compare_kernels.py --only scan > $r/compare-scan.txt 2>&1; echo "scan rc=$?"
grep -E "^FAIL|passed, |warps" $r/compare-scan.txt | cut -c1-200 | tail -14
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/liger_bench.py --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 100 python3 -m kiln.run bench/liger_bench.py --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt
grep -E "^    [_a-z]|geomean|DIFF" $r/compare.txt | grep -v Memcpy
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 180 python3 bench/corpus_run.py --max-seconds 165 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -3 $r/corpus.txt; gzip -f $r/corpus.json
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
