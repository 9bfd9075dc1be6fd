#!/usr/bin/env bash
# Session 34, call 1: int8 tl.dot on sm_90 wgmma (s8) and the int32 `acc += tl.dot` fold: the dot,
# tma and descriptor families against Triton (new: 4 int8 K-loop cases); an int8 GEMM timed under
# both compilers per config (bench/int8_matmul_bench.py, K-contiguous and N-contiguous B); host
# time per launch with two TensorDescriptor arguments under kiln.jit (its memo of validated
# descriptors), the drop-in and Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 170 python3 test/gpu/compare_kernels.py --only dot,tma,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |int8" $OUT/compare.txt | cut -c1-300 | tail -14
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc2 TRITON_CACHE_DIR=/tmp/tc2 timeout 240 python3 bench/int8_matmul_bench.py --json $OUT/int8.json > $OUT/int8.txt 2>&1; echo "int8 rc=$?"
sed -n '/^size  layout/,$p' $OUT/int8.txt; grep -E '"error"|"correct": false' $OUT/int8.txt | cut -c1-300 | head -5
date -u >> $OUT/device.txt
for who in kiln-jit triton; do KILN_CACHE_DIR=/tmp/kc3 TRITON_CACHE_DIR=/tmp/tc3 timeout 60 python3 python/tests/gpu_descriptor_launch.py --who $who; done > $OUT/launch.txt 2>&1
KILN_CACHE_DIR=/tmp/kc3 timeout 60 python3 -m kiln.run python/tests/gpu_descriptor_launch.py --who dropin >> $OUT/launch.txt 2>&1
for who in kiln-jit triton; do KILN_CACHE_DIR=/tmp/kc3 TRITON_CACHE_DIR=/tmp/tc3 timeout 60 python3 python/tests/gpu_descriptor_launch.py --who $who; done >> $OUT/launch.txt 2>&1
KILN_CACHE_DIR=/tmp/kc3 timeout 60 python3 -m kiln.run python/tests/gpu_descriptor_launch.py --who dropin >> $OUT/launch.txt 2>&1
cat $OUT/launch.txt | cut -c1-200
date -u >> $OUT/device.txt
