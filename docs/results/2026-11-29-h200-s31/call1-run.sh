#!/usr/bin/env bash
# Session 31, call 1: FlagGems (github FlagOpen/FlagGems 532ff438, Apache-2.0; a library of
# PyTorch operators in Triton never run on Kiln; .ext/flaggems, git-ignored) -- its own tests,
# unmodified, `--mode quick`, a fixed sample (every 25th parametrization of each test
# function) under Kiln's drop-in and under Triton 3.6, each from cold caches (Triton's, Kiln's,
# FlagGems' own code and tuning caches). First look: what fails and why.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
R=$PWD
F="tests/test_unary_pointwise_ops.py tests/test_binary_pointwise_ops.py tests/test_reduction_ops.py tests/test_general_reduction_ops.py tests/test_norm_ops.py tests/test_special_ops.py tests/test_tensor_constructor_ops.py tests/test_blas_ops.py tests/test_attention_ops.py tests/test_distribution_ops.py tests/test_pointwise_dynamic.py tests/test_libentry.py tests/test_pointwise_type_promotion.py tests/test_shape_utils.py tests/test_tensor_wrapper.py"
PYTHONPATH=$R/test/gpu/attorch:$PYTHONPATH ONLY= python3 test/gpu/attorch/run_sample.py --only kiln --root $R/.ext/flaggems \
  --stride 25 --timeout 250 --keep $OUT/keep --fresh-dir FLAGGEMS_CACHE_DIR --files $F -- --mode quick 2>&1 | tail -150 > $OUT/kiln.txt
tail -60 $OUT/kiln.txt
PYTHONPATH=$R/test/gpu/attorch:$PYTHONPATH python3 test/gpu/attorch/run_sample.py --only triton --root $R/.ext/flaggems \
  --stride 25 --timeout 200 --keep $OUT/keep --fresh-dir FLAGGEMS_CACHE_DIR --files $F -- --mode quick 2>&1 | tail -80 > $OUT/triton.txt
tail -15 $OUT/triton.txt
date -u >> $OUT/device.txt
