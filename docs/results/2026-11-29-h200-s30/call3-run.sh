#!/usr/bin/env bash
# Session 30, call 3: after the second round of fixes (tuple repetition, rank-3 argmin/argmax,
# a one-element tensor as a condition, host str_to_ty / _allocation / knobs.reset, atomics spelled
# scope-then-semantics): every test that failed in call 2 again; the atomics family against
# Triton and RuntimeGpuTests (the atomics' PTX text changed).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T0=$(date +%s); left() { echo $(( $1 - ($(date +%s) - T0) )); }
R=$PWD
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-rerun timeout 150 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=line @$R/docs/results/2026-11-29-h200-s30/call2-failed-ids.txt > $OUT/rerun.txt 2>&1; echo "rerun rc=$?")
tail -2 $OUT/rerun.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 test/gpu/compare_kernels.py --only atomics > $OUT/compare-atomics.txt 2>&1; echo "compare atomics rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-atomics.txt | tail -4
L=$(left 330); [ $L -gt 40 ] && { KILN_CACHE_DIR=/tmp/kg timeout $L /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt; }
date -u >> $OUT/device.txt
cd $OUT && tar czf call3.tgz $(ls) && find . -mindepth 1 ! -name call3.tgz -exec rm -rf {} + 2>/dev/null; ls
