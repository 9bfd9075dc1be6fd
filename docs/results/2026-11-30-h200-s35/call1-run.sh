#!/usr/bin/env bash
# Session 35, call 1: TMA for descriptors made in the kernel (tile.tensormap_create: tensor maps
# built in global scratch the launch allocates). The TMA / descriptor / dot families against
# Triton (new cases: tma_dev_mm, tma_dev_grouped), then tutorial 08 (grouped GEMM, whose TMA
# kernel makes its descriptors per group) unmodified under Triton and under Kiln, cold caches.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|tma_dev|passed, " $OUT/compare.txt | cut -c1-300 | tail -24
date -u >> $OUT/device.txt
mkdir -p /tmp/tut
timeout 150 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 08 --keep /tmp/tut --timeout 70 > $OUT/tutorial08.txt 2>&1; echo "tutorial rc=$?"
cut -c1-200 $OUT/tutorial08.txt | head -8; cat /tmp/tut/08.triton.out /tmp/tut/08.kiln.out > $OUT/tutorial08-out.txt; cat $OUT/tutorial08-out.txt; tail -6 /tmp/tut/08.kiln.err
date -u >> $OUT/device.txt
