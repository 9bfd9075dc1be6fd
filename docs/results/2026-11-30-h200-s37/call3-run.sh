#!/usr/bin/env bash
# Session 37, call 3: descriptor stores by TMA only where rows end on 16-byte chunks (call 2: the
# TMA unit writes whole chunks, under Triton too). compare_kernels' TMA, descriptor and dot
# families against Triton; the fused-attention tutorial's forward (its O store now a TMA store)
# under Kiln and Triton; tutorial 09's TMA and descriptor persistent kernels, autotuned, K = 512,
# under Kiln and Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 230 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -14
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 60 python3 -m kiln.run bench/tutorial06_bench.py --modes fwd --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc6 timeout 100 python3 bench/tutorial06_bench.py --modes fwd --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
A="--sizes 8192x8192x512 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 60 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "t09 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc9 timeout 110 python3 bench/tutorial09_bench.py $T09 $A > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "t09 triton rc=$?"
date -u >> $OUT/device.txt
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl | cut -c1-400
