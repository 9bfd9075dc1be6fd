#!/usr/bin/env bash
# Session 34, call 4: triton.testing.do_bench_cudagraph now replays a CUDA graph under Kiln's drop-in:
# tutorial 11 (programmatic dependent launch, timed with do_bench_cudagraph) under Triton and Kiln,
# each from a cold cache; then the half of compare_kernels that timed out in call 3 (math, mathref,
# random, scan, shape, sort, mapelem, layernorm_fast).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
mkdir -p /tmp/tut
timeout 80 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 11 --keep /tmp/tut --timeout 35 > $OUT/tutorial11.txt 2>&1; echo "tutorial rc=$?"
cut -c1-200 $OUT/tutorial11.txt | head -6; cat /tmp/tut/11.triton.out /tmp/tut/11.kiln.out > $OUT/tutorial11-out.txt; cat $OUT/tutorial11-out.txt; tail -4 /tmp/tut/11.kiln.err
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc2 timeout 400 python3 test/gpu/compare_kernels.py --only math,mathref,random,scan,shape,sort,mapelem,layernorm_fast > $OUT/compare-b.txt 2>&1; echo "compare b rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-b.txt | cut -c1-300 | tail -6
date -u >> $OUT/device.txt
