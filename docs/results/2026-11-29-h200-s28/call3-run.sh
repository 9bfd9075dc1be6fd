#!/usr/bin/env bash
# Session 28, call 3: register-capped builds for grids larger than the device holds at once
# (KILN_OCCUPANCY, lib/Runtime/Occupancy.cpp): the corpus against Triton with them (the default),
# the corpus on Kiln without them (KILN_OCCUPANCY=off), LayerNorm (ln-bench) off / on alternating.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcc timeout 300 python3 bench/corpus_run.py --max-seconds 280 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus.txt; grep -c "programs get a build capped" $OUT/corpus.txt; grep -c "register-capped build," $OUT/corpus.txt; grep "dropped" $OUT/corpus.txt | head
KILN_OCCUPANCY=off KILN_CACHE_DIR=/tmp/kcc timeout 200 python3 bench/corpus_run.py --kiln-only --max-seconds 180 --json $OUT/corpus-off.json > $OUT/corpus-off.txt 2>&1; echo "corpus off rc=$?"
tail -2 $OUT/corpus-off.txt
S=4096x1024,4096x4096,4096x8192,65536x1024,65536x4096
for round in 1 2; do for occ in off on; do
  KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln timeout 100 /tmp/kiln-bundle/bin/ln-bench --dtypes fp16,bf16 --shapes $S --no-compile-times --no-launch-overhead --json $OUT/ln-$occ-$round.json > $OUT/ln-$occ-$round.txt 2>&1; echo "ln $occ $round rc=$?"
done; done
cd $OUT && tar czf call3.tgz *.txt *.json && rm -f *.txt *.json
