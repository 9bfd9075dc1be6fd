#!/usr/bin/env bash
# Session 29, call 5: the session's code so far (unaligned dot operands through tile.local_store,
# compiled whole; redux.sync): the whole corpus against Triton (Triton's PTX and TTGIR of every
# instance kept for offline comparison), RuntimeGpuTests, the dot / dot_scaled / block-pointer /
# descriptor families against Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tcc KILN_CACHE_DIR=/tmp/kcc timeout 200 python3 bench/corpus_run.py --max-seconds 180 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus.txt
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"
tail -2 $OUT/gtest-gpu.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 170 python3 test/gpu/compare_kernels.py --only dot,dotscaled,blockptr,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -8
date -u >> $OUT/device.txt
mkdir -p $OUT/tc && for d in /tmp/tcc/*/; do for f in $d*.ptx $d*.ttgir $d*.json; do [ -f "$f" ] && cp "$f" $OUT/tc/$(basename $d | cut -c1-8)-$(basename $f); done; done
cd $OUT && tar czf call5.tgz *.txt *.json tc && rm -rf *.txt *.json tc
