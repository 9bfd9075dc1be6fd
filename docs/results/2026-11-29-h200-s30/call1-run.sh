#!/usr/bin/env bash
# Session 30, call 1: Triton 3.6's own language tests (python/test/unit/language, unmodified,
# .ext/triton36 at dff2b0200837) under Kiln's drop-in on a fixed sample: test_core every 6th
# parametrization, the other files every 12th; per-test outcome and first error kept for triage.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
python3 -c "import numpy, pytest, triton; print('numpy', numpy.__version__, 'pytest', pytest.__version__, 'triton', triton.__version__)"
python3 -c "import scipy; print('scipy', scipy.__version__)" 2>&1 | tail -1
T0=$(date +%s); left() { echo $(( $1 - ($(date +%s) - T0) )); }
ONLY=kiln timeout 310 test/gpu/tritontests/run.sh $OUT/core 6 300 unit/language/test_core.py > $OUT/core.log 2>&1; echo "core rc=$?"
grep -E "^== |tests:|kernels:" $OUT/core.log
L=$(left 535); ONLY=kiln timeout $L test/gpu/tritontests/run.sh $OUT/rest 12 $((L-10)) unit/language/test_standard.py unit/language/test_random.py unit/language/test_tuple.py unit/language/test_libdevice.py unit/language/test_block_pointer.py unit/language/test_annotations.py unit/language/test_decorator.py unit/language/test_conversions.py unit/language/test_pipeliner.py unit/language/test_tensor_descriptor.py unit/language/test_matmul.py > $OUT/rest.log 2>&1; echo "rest rc=$?"
grep -E "^== |tests:|kernels:" $OUT/rest.log
date -u >> $OUT/device.txt
cd $OUT && tar czf call1.tgz $(ls) && find . -mindepth 1 ! -name call1.tgz -exec rm -rf {} + 2>/dev/null; ls
