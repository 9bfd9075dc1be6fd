#!/usr/bin/env bash
# Session 29, call 1: KILN_OCCUPANCY=auto (the default since session 28, never run on a GPU): the
# whole corpus against Triton with the cache log (which kernels measured own vs capped, and the
# choice), the tuned fused LayerNorm (layernorm_best kiln column) auto vs off, RuntimeGpuTests.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcc timeout 280 python3 bench/corpus_run.py --max-seconds 250 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"; date -u >> $OUT/device.txt
tail -3 $OUT/corpus.txt; grep -c "programs get a build capped\|a build capped at" $OUT/corpus.txt
grep -E "own build .* ms" $OUT/corpus.txt | cut -c1-220
for occ in off auto; do
  KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln8 timeout 50 python3 bench/layernorm_best.py --quick --reps 12,25 --columns kiln --dtype fp16 --mode fwd,fwdbwd --M 65536 --max-seconds 40 --out $OUT/$occ > $OUT/ln-best-$occ.txt 2>&1; echo "ln $occ rc=$?"
  grep -E "^\| fwd" $OUT/ln-best-$occ.txt | head -12
done
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"
tail -3 $OUT/gtest-gpu.txt; date -u >> $OUT/device.txt
cd $OUT && tar czf call1.tgz *.txt *.json off auto && rm -rf *.txt *.json off auto
