#!/usr/bin/env bash
# Session 29, call 6: the final code (a runtime `other` moved into the load's registers; frontend
# fixes from the vLLM / sglang / gemlite / FlagAttention sweeps; tl.dot_scaled of a scaled bf16
# operand): the new compat and dot_scaled cases against Triton, the whole corpus against Triton,
# the other families, RuntimeGpuTests, as time allows.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T0=$(date +%s); left() { echo $(( $1 - ($(date +%s) - T0) )); }
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 test/gpu/compare_kernels.py --only compat,dotscaled > $OUT/compare-new.txt 2>&1; echo "compare compat,dotscaled rc=$?"
grep -E "^FAIL|^PASS|passed, " $OUT/compare-new.txt | cut -c1-220 | tail -20
KILN_CACHE_DIR=/tmp/kcc timeout 130 python3 bench/corpus_run.py --max-seconds 115 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus.txt; grep -E "^masked_gather" $OUT/corpus.txt | cut -c1-120
date -u >> $OUT/device.txt
L=$(left 400); [ $L -gt 60 ] && { KILN_CACHE_DIR=/tmp/kc1 timeout $L python3 test/gpu/compare_kernels.py --only atomics,blockptr,desc,dot,scan,shape,sort,mapelem > $OUT/compare-rest.txt 2>&1; echo "compare rest rc=$?"; grep -E "^FAIL|passed, " $OUT/compare-rest.txt | tail -8; }
L=$(left 470); [ $L -gt 60 ] && { KILN_CACHE_DIR=/tmp/kg timeout $L /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt; }
date -u >> $OUT/device.txt
cd $OUT && tar czf call6.tgz *.txt *.json && rm -rf *.txt *.json
