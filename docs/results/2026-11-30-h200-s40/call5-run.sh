#!/usr/bin/env bash
# Session 40, call 5: cross-warp reductions of 8 or more partials read one partial per lane and
# combine by butterfly (ReduceOpToLLVM.cpp; 51 corpus kernels' PTX changed). The kernel corpus
# against Triton (correctness and time), then Liger's operators under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 220 python3 bench/corpus_run.py --max-seconds 200 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -3 $r/corpus.txt
gzip -f $r/corpus.json
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/liger_bench.py --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 100 python3 -m kiln.run bench/liger_bench.py --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt
grep -E "^    [_a-z]" $r/compare.txt | grep -v Memcpy
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
