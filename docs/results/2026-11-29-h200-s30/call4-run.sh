#!/usr/bin/env bash
# Session 30, call 4 (the last device time): the final code on the 94 tests that failed in call 3
# (the uint-descriptor and bool block-pointer fixes came after it), then a regression sample of
# test_core (every 40th parametrization) and test_block_pointer, as the window allows.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T0=$(date +%s); left() { echo $(( $1 - ($(date +%s) - T0) )); }
R=$PWD
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-rerun timeout 60 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=line @$R/docs/results/2026-11-29-h200-s30/call3-failed-ids.txt > $OUT/rerun.txt 2>&1; echo "rerun rc=$?")
tail -1 $OUT/rerun.txt
L=$(left 175); ONLY=kiln timeout $L test/gpu/tritontests/run.sh $OUT/regress 40 $((L-5)) unit/language/test_block_pointer.py unit/language/test_core.py > $OUT/regress.log 2>&1; echo "regress rc=$?"
grep -E "^== |tests:" $OUT/regress.log
date -u >> $OUT/device.txt
cd $OUT && tar czf call4.tgz $(ls) && find . -mindepth 1 ! -name call4.tgz -exec rm -rf {} + 2>/dev/null; ls
