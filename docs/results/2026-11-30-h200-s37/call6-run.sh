#!/usr/bin/env bash
# Session 37, call 6: the kernel corpus against Triton at the last code commit (37bb859). Its
# PTX is identical to session 35's (bench/ptx_snapshot.py), so this is the record that no corpus
# kernel moved; compared with session 29's last full corpus run (call 6) in performance.md.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 150 python3 bench/corpus_run.py --max-seconds 135 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -4 $OUT/corpus.txt
gzip -f $OUT/corpus.json
date -u >> $OUT/device.txt
