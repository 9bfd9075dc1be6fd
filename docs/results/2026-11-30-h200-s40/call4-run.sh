#!/usr/bin/env bash
# Session 40, call 4: the whole-program alternative build (Occupancy.cpp: large grids of linked
# kernels whose registers bound their programs per SM, where no cap is planned or the cap
# spilled; timed against the own build on the first launches). Liger's operators under both
# compilers (KILN_LOG=cache for the plans and choices), then the kernel corpus against Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 200 python3 bench/liger_bench.py --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 -m kiln.run bench/liger_bench.py --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt
grep -E "^[a-z_]+ |    _|    [a-z]|geomean" $r/compare.txt | grep -v Memcpy
grep -E "whole-program|own build" $r/kiln.log | sort | uniq | cut -c1-200 | head -40
date -u >> $r/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcc timeout 200 python3 bench/corpus_run.py --max-seconds 185 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -4 $r/corpus.txt
grep -E "whole-program|own build" $r/corpus.err | sort | uniq -c | sort -rn | cut -c1-200 | head -40
gzip -f $r/corpus.json
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
