#!/usr/bin/env bash
# Session 28, call 4: register caps only where they fit 1.5x the programs per SM: the corpus
# against Triton, LayerNorm (ln-bench) off / on, RuntimeGpuTests, mamba's op tests on Kiln.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcc timeout 300 python3 bench/corpus_run.py --max-seconds 280 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus.txt; grep -c "programs get a build capped" $OUT/corpus.txt; grep -c "register-capped build," $OUT/corpus.txt
S=4096x1024,4096x4096,4096x8192,65536x1024,65536x4096
for occ in off on; do
  KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln timeout 100 /tmp/kiln-bundle/bin/ln-bench --dtypes fp16,bf16 --shapes $S --no-compile-times --no-launch-overhead --json $OUT/ln-$occ.json > $OUT/ln-$occ.txt 2>&1; echo "ln $occ rc=$?"
done
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"
tail -3 $OUT/gtest-gpu.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kiln-cache timeout 150 test/gpu/run_mamba.sh $OUT/mamba 3 140 > $OUT/mamba.log 2>&1
tail -3 $OUT/mamba/mamba.txt; rm -rf $OUT/mamba/keep
cd $OUT && tar czf call4.tgz *.txt *.json *.log mamba && rm -rf *.txt *.json *.log mamba
