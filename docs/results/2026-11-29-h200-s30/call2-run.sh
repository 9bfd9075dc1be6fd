#!/usr/bin/env bash
# Session 30, call 2: after the fixes for call 1's failures, (a) every test that failed in call 1
# again (call1-failed-ids.txt), (b) the rest of test_core's stride-6 sample (the functions call 1
# did not reach), under Kiln's drop-in.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T0=$(date +%s); left() { echo $(( $1 - ($(date +%s) - T0) )); }
R=$PWD
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-rerun timeout 200 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=line @$R/docs/results/2026-11-29-h200-s30/call1-failed-ids.txt > $OUT/rerun.txt 2>&1; echo "rerun rc=$?")
tail -3 $OUT/rerun.txt
L=$(left 540); KEXPR="not (test_bin_op or test_bitwise_op or test_compare_op or test_shift_op)" ONLY=kiln \
  timeout $L test/gpu/tritontests/run.sh $OUT/core2 6 $((L-10)) unit/language/test_core.py > $OUT/core2.log 2>&1; echo "core2 rc=$?"
grep -E "^== |tests:|kernels:" $OUT/core2.log
date -u >> $OUT/device.txt
cd $OUT && tar czf call2.tgz $(ls) && find . -mindepth 1 ! -name call2.tgz -exec rm -rf {} + 2>/dev/null; ls
