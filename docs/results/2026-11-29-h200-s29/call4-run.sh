#!/usr/bin/env bash
# Session 29, call 4: unaligned dot operands, the first load before the slot barrier and the others
# after the previous store (Triton's order), compiled whole (KILN_JIT=auto): the odd matmul,
# moe_gemm and bmm_bias against Triton; the dot / dot_scaled / block-pointer / descriptor families.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
for k in matmul_kernel/odd moe_gemm_kernel/odd bmm_bias_kernel/odd; do
  KILN_CACHE_DIR=/tmp/kc4 timeout 40 python3 bench/corpus_run.py --filter $k > $OUT/odd-${k%%/*}.txt 2>&1; echo "$k rc=$?"
  grep -E "^(matmul|moe_gemm|bmm_bias)_kernel/" $OUT/odd-${k%%/*}.txt | cut -c1-150
done
KILN_CACHE_DIR=/tmp/kc1 timeout 170 python3 test/gpu/compare_kernels.py --only dot,dotscaled,blockptr,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -8
date -u >> $OUT/device.txt
cd $OUT && tar czf call4.tgz *.txt && rm -rf *.txt
