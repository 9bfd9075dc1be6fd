#!/usr/bin/env bash
# Session 35, call 3: the global scratch of kernels that build tensor maps comes from a pool of
# Kiln's own that keeps freed memory (call 2 allocated from the device's default pool, which gives
# memory back at every synchronization). Tutorial 08 again under both compilers (its small
# grouped problems showed 3-9 us more per call under Kiln), then the TMA family.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
mkdir -p /tmp/tut
timeout 150 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 08 --keep /tmp/tut --timeout 70 > $OUT/tutorial08.txt 2>&1; echo "tutorial rc=$?"
cut -c1-200 $OUT/tutorial08.txt | head -8; cat /tmp/tut/08.triton.out /tmp/tut/08.kiln.out > $OUT/tutorial08-out.txt; cat $OUT/tutorial08-out.txt; tail -6 /tmp/tut/08.kiln.err
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 100 python3 test/gpu/compare_kernels.py --only tma > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -8
date -u >> $OUT/device.txt
