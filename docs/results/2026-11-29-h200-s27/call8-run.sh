#!/usr/bin/env bash
# Session 27, call 8: the whole corpus with every kernel JIT-compiled as a whole program
# (KILN_JIT=whole), to compare per instance with call 4 (the default rule).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_JIT=whole KILN_CACHE_DIR=/tmp/kcw timeout 170 python3 bench/corpus_run.py --max-seconds 150 > $OUT/corpus-whole.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus-whole.txt
