#!/usr/bin/env bash
# Session 41, call 3: loads pinned to their own coalesced layout where their consumers' layout
# replicates them (2cd0c4b; corpus PTX: only histogram small changes) and the host evaluator's
# imported modules (92dae8a, b14473f). compare_kernels' families, lightllm under both compilers,
# the corpus against Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 200 python3 test/gpu/compare_kernels.py --only atomics,dot,shape,blockptr,compat,scan,sort > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -v Memcpy $r/ll-compare.txt | cut -c1-200
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 180 python3 bench/corpus_run.py --max-seconds 165 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
grep histogram $r/corpus.txt | head -9; tail -3 $r/corpus.txt; gzip -f $r/corpus.json
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
