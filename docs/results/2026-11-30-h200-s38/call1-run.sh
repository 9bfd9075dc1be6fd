#!/usr/bin/env bash
# Session 38, call 1: tf32 / fp8 B operands written as `b_desc.load([n, k]).T` copied by TMA as
# stored (N rows of K) and read K-major by wgmma through the transpose. compare_kernels' TMA,
# descriptor and dot families against Triton (new: tma_mm_bt fp8 / tf32, tma_dev_mm fp8 / tf32,
# persistent_tma fp8), RuntimeGpuTests, then tutorial 09's TMA and descriptor persistent kernels
# autotuned under Kiln and Triton (fp8, K = 512).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 280 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -20
grep -E "fp8e4nv|fp32" $OUT/compare.txt | grep -E "tma_mm_bt|tma_dev_mm|persistent_tma" | cut -c1-160 | head -40
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 80 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
A="--sizes 8192x8192x512 --dtypes fp8 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 60 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "t09 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc9 timeout 100 python3 bench/tutorial09_bench.py $T09 $A > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "t09 triton rc=$?"
date -u >> $OUT/device.txt
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl | cut -c1-300
tail -3 $OUT/t09-kiln.err
