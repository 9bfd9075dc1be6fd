#!/usr/bin/env bash
# Session 38, call 4: fp32 -> fp8 tensors two registers per cvt (tutorial 09's fp8 epilogue, call 3's
# ncu: Kiln issued ~30 % more instructions than Triton). compare_kernels' TMA, descriptor and dot
# families against Triton, the corpus against Triton, and tutorial 09's fp8 TMA and descriptor
# persistent kernels autotuned under Kiln and Triton (K = 512).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
A="--sizes 8192x8192x512 --dtypes fp8 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 50 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "t09 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc9 timeout 90 python3 bench/tutorial09_bench.py $T09 $A > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "t09 triton rc=$?"
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl | cut -c1-300
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 170 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -12
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 150 python3 bench/corpus_run.py --max-seconds 135 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -4 $OUT/corpus.txt
gzip -f $OUT/corpus.json
date -u >> $OUT/device.txt
