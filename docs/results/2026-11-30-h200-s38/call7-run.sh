#!/usr/bin/env bash
# Session 38, call 7: int8 descriptor blocks by TMA (copies and stores). compare_kernels' TMA,
# descriptor and dot families against Triton (new: tma_mm_bt / tma_dev_mm int8, tma_store_tiles
# int8) and RuntimeGpuTests at the last code commit.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -12
grep -E "int8" $OUT/compare.txt | grep -E "tma_mm_bt|tma_dev_mm|tma_store" | cut -c1-140
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 110 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; grep -E "PASSED|FAILED" $OUT/gtest-gpu.txt | head
date -u >> $OUT/device.txt
