#!/usr/bin/env bash
# Session 34, call 3: hints that hold for the value itself (a dropped `tl.multiple_of(...)`
# statement; tutorial 08's K loop) and tutorial 08's typo'd autotune key. Tutorial 08 (grouped GEMM)
# unmodified under Triton and under Kiln, each from a cold cache; then every compare_kernels family
# against Triton, in two halves (regression of the session's frontend and codegen changes).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
mkdir -p /tmp/tut
timeout 130 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 08 --keep /tmp/tut --timeout 60 > $OUT/tutorial08.txt 2>&1; echo "tutorial rc=$?"
cut -c1-200 $OUT/tutorial08.txt | head -8; cat /tmp/tut/08.triton.out /tmp/tut/08.kiln.out > $OUT/tutorial08-out.txt; cat $OUT/tutorial08-out.txt; tail -6 /tmp/tut/08.kiln.err
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 200 python3 test/gpu/compare_kernels.py --only dot,tma,desc,blockptr,atomics,compat,dotscaled > $OUT/compare-a.txt 2>&1; echo "compare a rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-a.txt | cut -c1-300 | tail -6
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc2 timeout 200 python3 test/gpu/compare_kernels.py --only math,mathref,random,scan,shape,sort,mapelem,layernorm_fast > $OUT/compare-b.txt 2>&1; echo "compare b rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-b.txt | cut -c1-300 | tail -6
date -u >> $OUT/device.txt
