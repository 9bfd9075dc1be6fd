#!/usr/bin/env bash
# Session 31, call 5 (what device time was left): the final code. RuntimeGpuTests; Triton's
# test_core tests of enable_fp_fusion and the empty-tensor launches; the matmul tutorial (03,
# autotuned over num_stages: the in-memory variant table now keys num_stages) under Kiln, its own
# correctness check (the benchmark after it is cut by the timeout).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
R=$PWD
timeout 60 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gpu-tests.txt 2>&1; echo "gpu tests rc=$?"; tail -3 $OUT/gpu-tests.txt
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-ff timeout 60 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=line unit/language/test_core.py -k "fp_fusion or pipeline_epilogue" > $OUT/triton-ff.txt 2>&1; echo "fp fusion rc=$?")
tail -3 $OUT/triton-ff.txt
(cd .ext/triton-tutorials && MPLBACKEND=Agg KILN_CACHE_DIR=/tmp/kc-tut timeout 100 python3 -m kiln.run --report 03-matrix-multiplication.py > $OUT/tut03.txt 2>&1; echo "tutorial 03 rc=$?")
grep -n -i "match\|differ\|error" $OUT/tut03.txt | head -8
date -u >> $OUT/device.txt
