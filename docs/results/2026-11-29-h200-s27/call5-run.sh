#!/usr/bin/env bash
# Session 27, call 5: the session's code against the GPU tests that 32-bit shared pointers
# touch beyond the corpus: RuntimeGpuTests (LayerNorm, launches), the scan / sort / shape /
# atomics / fused-LayerNorm families against Triton, mamba's op tests on Kiln.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"
tail -4 $OUT/gtest-gpu.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only scan,sort,shape,atomics,layernorm_fast > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -8
ONLY=kiln KILN_CACHE_DIR=/tmp/kiln-cache timeout 150 test/gpu/run_mamba.sh $OUT/mamba 3 140 > $OUT/mamba.log 2>&1
tail -4 $OUT/mamba/mamba.txt; rm -rf $OUT/mamba/keep; cd $OUT && tar czf mamba.tgz mamba mamba.log && rm -rf mamba mamba.log
