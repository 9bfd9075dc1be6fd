#!/usr/bin/env bash
# Session 29, call 3: unaligned dot operands loaded before the slot's barrier (tile.local_store) and
# redux.sync for 32-bit integer warp reductions: the whole corpus against Triton, the dot / block
# pointer / descriptor families and the shape / scan / sort / atomics ones against Triton, the odd
# matmuls with the driver's linker and as whole programs.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 200 python3 bench/corpus_run.py --max-seconds 180 --json $OUT/corpus.json > $OUT/corpus.txt 2>&1; echo "corpus rc=$?"
tail -3 $OUT/corpus.txt; grep -E "^(matmul|moe_gemm|bmm_bias|collatz|int_row|row_argmax)" $OUT/corpus.txt | cut -c1-150
date -u >> $OUT/device.txt
for jit in link whole; do
  for k in matmul_kernel/odd moe_gemm_kernel/odd bmm_bias_kernel/odd; do
    KILN_JIT=$jit KILN_CACHE_DIR=/tmp/kcj$jit timeout 40 python3 bench/corpus_run.py --filter $k > $OUT/odd-$jit-${k%%/*}.txt 2>&1; echo "$k $jit rc=$?"
    grep -E "^(matmul|moe_gemm|bmm_bias)" $OUT/odd-$jit-${k%%/*}.txt | cut -c1-150
  done
done
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only dot,dotscaled,blockptr,desc,shape,scan,sort,atomics > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -12
date -u >> $OUT/device.txt
cd $OUT && tar czf call3.tgz *.txt *.json && rm -rf *.txt *.json
