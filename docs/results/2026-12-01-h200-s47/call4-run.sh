#!/usr/bin/env bash
# Session 47, call 4 (0057bb0, the final code): the whole kernel corpus against Triton 3.6
# (correctness and time, both compilers in the same run), in two shards.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
for s in 1 2; do
  KILN_CACHE_DIR=/tmp/kcc TRITON_CACHE_DIR=/tmp/tcc timeout 200 python3 bench/corpus_run.py --shard $s/2 --max-seconds 180 --json $r/corpus$s.json > $r/corpus$s.txt 2> $r/corpus$s.err; echo "corpus shard $s rc=$?"
  tail -3 $r/corpus$s.txt
  date -u >> $r/device.txt
done
tar czf $OUT/results.tgz -C $OUT r
