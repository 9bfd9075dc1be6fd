#!/usr/bin/env bash
# Session 37, call 5: the last code commit (TMA stores in loops only). compare_kernels' TMA and
# descriptor families against Triton, RuntimeGpuTests, and tutorial 09's TMA and descriptor
# persistent kernels config by config (fp16, K = 512) at this commit alone, to set beside call 1.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 170 python3 test/gpu/compare_kernels.py --only tma,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -14
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 100 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
ARGS="--per-config --sizes 8192x8192x512 --dtypes fp16 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kcn timeout 60 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-new.jsonl 2> $OUT/cfg-new.err; echo "new rc=$?"
date -u >> $OUT/device.txt
wc -l $OUT/*.jsonl
