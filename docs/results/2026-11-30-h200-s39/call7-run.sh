#!/usr/bin/env bash
# Session 39, call 7: mamba's own Triton op tests (state-spaces/mamba e9594ce, unmodified; every
# 3rd parametrization) under Kiln at the final code: the regression check of the imported-module
# fix (f8de752: mamba's softplus is defined under `if TRITON3:` in softplus.py).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kcm timeout 280 test/gpu/run_mamba.sh $OUT/mamba 3 270 > /dev/null 2>&1; echo "mamba rc=$?"
tail -4 $OUT/mamba/mamba.txt; cp $OUT/mamba/mamba.txt $OUT/mamba.txt; rm -rf $OUT/mamba
date -u >> $OUT/device.txt
