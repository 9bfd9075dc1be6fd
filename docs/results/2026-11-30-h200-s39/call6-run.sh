#!/usr/bin/env bash
# Session 39, call 6: the final code. This session's language fixes under Triton and Kiln
# (language_checks.py), RuntimeGpuTests, compare_kernels' dot, tma and desc families.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
R=$OUT/r; mkdir -p $R
nvidia-smi -L > $R/device.txt; date -u >> $R/device.txt
L=docs/results/2026-11-30-h200-s39/language_checks.py
TRITON_CACHE_DIR=/tmp/tcl timeout 60 python3 $L > $R/lang-triton.txt 2>&1; echo "lang triton rc=$?"
KILN_CACHE_DIR=/tmp/kcl timeout 60 python3 -m kiln.run $L > $R/lang-kiln.txt 2>&1; echo "lang kiln rc=$?"
cat $R/lang-triton.txt; echo "--"; cat $R/lang-kiln.txt
date -u >> $R/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $R/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest-gpu.txt
date -u >> $R/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 230 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $R/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $R/compare.txt | cut -c1-200 | tail -8
date -u >> $R/device.txt
tar czf $OUT/call6.tgz -C $R .
