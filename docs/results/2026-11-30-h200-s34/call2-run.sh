#!/usr/bin/env bash
# Session 34, call 2: regression of the session's changes (tl.const types, the int32 dot fold, int8
# wgmma, launch_pdl) over every compare_kernels family and RuntimeGpuTests; the Triton tutorials
# never run on Kiln before (08 grouped GEMM, 09 persistent matmul, 11 programmatic dependent
# launch), unmodified, under Triton and under Kiln's drop-in, each from a cold cache.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 240 python3 test/gpu/compare_kernels.py > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -8
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 120 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
date -u >> $OUT/device.txt
mkdir -p /tmp/tut
timeout 200 python3 test/gpu/run_triton_tutorials.py .ext/triton-tutorials --only 11,08,09 --keep /tmp/tut --timeout 90 > $OUT/tutorials.txt 2>&1; echo "tutorials rc=$?"
cat $OUT/tutorials.txt | cut -c1-250 | tail -30
(cd /tmp/tut && tar czf $OUT/tutorials-out.tar.gz .)
date -u >> $OUT/device.txt
