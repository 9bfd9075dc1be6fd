#!/usr/bin/env bash
# Session 31, call 3: FlagGems' own tests under Kiln after the second round of fixes (host
# bindings through from-imports and copied globals, nested scalar defs, runtime values annotated
# tl.constexpr, static_assert configs skipped): call 2's sample again, then a sample never run
# (offset 12). Triton 3.6 cannot run this FlagGems commit (call 1).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
R=$PWD
F="tests/test_unary_pointwise_ops.py tests/test_binary_pointwise_ops.py tests/test_reduction_ops.py tests/test_general_reduction_ops.py tests/test_norm_ops.py tests/test_special_ops.py tests/test_tensor_constructor_ops.py tests/test_blas_ops.py tests/test_attention_ops.py tests/test_distribution_ops.py tests/test_pointwise_dynamic.py tests/test_libentry.py tests/test_pointwise_type_promotion.py tests/test_shape_utils.py tests/test_tensor_wrapper.py"
PYTHONPATH=$R/test/gpu/attorch:$PYTHONPATH python3 test/gpu/attorch/run_sample.py --only kiln --root $R/.ext/flaggems \
  --stride 25 --timeout 250 --keep $OUT/keep --fresh-dir FLAGGEMS_CACHE_DIR --files $F -- --mode quick > $OUT/kiln.txt 2>&1
grep -E "^== |tests:|kernels:" $OUT/kiln.txt
grep -h "^E  " $OUT/keep/kiln.failures | sort | uniq -c | sort -rn | head -40
date -u >> $OUT/device.txt
# A second sample never run before (offset 12 of the same stride).
PYTHONPATH=$R/test/gpu/attorch:$PYTHONPATH python3 test/gpu/attorch/run_sample.py --only kiln --root $R/.ext/flaggems \
  --stride 25 --offset 12 --timeout 250 --keep $OUT/keep12 --fresh-dir FLAGGEMS_CACHE_DIR --files $F -- --mode quick > $OUT/kiln12.txt 2>&1
grep -E "^== |tests:|kernels:" $OUT/kiln12.txt
grep -h "^E  " $OUT/keep12/kiln.failures | sort | uniq -c | sort -rn | head -30
