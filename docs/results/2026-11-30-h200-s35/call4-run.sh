#!/usr/bin/env bash
# Session 35, call 4: tutorial 09's matmul kernels (persistent; TMA persistent with host
# descriptors; descriptor persistent, whose descriptors are made in the kernel), the tutorial file
# unmodified, timed by bench/tutorial09_bench.py under Triton and under Kiln's drop-in, each from a
# cold cache (the tutorial's own driver needs Triton's profiler and cuBLAS binding). Then tutorial
# 11 (programmatic dependent launch) under both: launch_pdl=True now stays on the drop-in's hit
# path, and a PDL launch goes through the launch code changed for cooperative + PDL.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
TRITON_CACHE_DIR=/tmp/tc9 timeout 260 python3 bench/tutorial09_bench.py $T09 > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "triton rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc9 timeout 150 python3 -m kiln.run bench/tutorial09_bench.py $T09 > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "kiln rc=$?"
date -u >> $OUT/device.txt
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl; tail -5 $OUT/t09-kiln.err | cut -c1-300
mkdir -p /tmp/tut
timeout 150 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 11 --keep /tmp/tut --timeout 70 > $OUT/tutorial11.txt 2>&1; echo "tutorial rc=$?"
cut -c1-200 $OUT/tutorial11.txt | head -6; cat /tmp/tut/11.triton.out /tmp/tut/11.kiln.out > $OUT/tutorial11-out.txt; cat $OUT/tutorial11-out.txt | head -60
date -u >> $OUT/device.txt
