#!/usr/bin/env bash
# Session 57, call 7 (H200): ln_fwd_variants.py under Kiln (the drop-in) and under Triton.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
d=docs/results/2026-12-03-h200-s57
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kv timeout 150 python3 -m kiln.run $d/ln_fwd_variants.py kiln > $r/kiln.txt 2>&1; echo "kiln rc=$?"
cat $r/kiln.txt
TRITON_CACHE_DIR=/tmp/tv timeout 200 python3 $d/ln_fwd_variants.py triton > $r/triton.txt 2>&1; echo "triton rc=$?"
cat $r/triton.txt; date -u >> $r/device.txt
