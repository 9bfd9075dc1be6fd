#!/usr/bin/env bash
# Session 37, call 2: call 1's compare run faulted (illegal instruction) at the second
# tma_store_tiles case and every later case failed with the poisoned context. Here each
# tma_store_tiles case runs alone in its own process, under Triton and under Kiln, so the
# faulting backend and cases show; compute-sanitizer on the first Kiln fault; then the desc and dot
# families of compare_kernels, which call 1 could not check.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
S=docs/results/2026-11-30-h200-s37/store_case.py
first=""
for p in "fp16 200x144" "fp16 256x256" "fp16 64x96" "bf16 200x144" "bf16 256x256" "bf16 64x96" \
         "fp32 200x144 32x128" "fp32 256x256 32x128" "fp32 64x96 32x128" "fp32 256x256 64x32" \
         "fp8e4nv 256x256 64x128" "fp8e4nv 256x256 128x64"; do
  for b in triton kiln; do
    KILN_CACHE_DIR=/tmp/kcs timeout 60 python3 $S $b "$p" 2>&1 | grep -E "^(OK|ERR)" | tee -a $OUT/store-cases.txt
    if [ $b = kiln ] && [ -z "$first" ] && grep -q "^ERR kiln" $OUT/store-cases.txt; then first="$p"; fi
  done
done
date -u >> $OUT/device.txt
if [ -n "$first" ]; then
  KILN_CACHE_DIR=/tmp/kcs timeout 90 compute-sanitizer --print-limit 5 python3 $S kiln "$first" > $OUT/sanitizer.txt 2>&1
  grep -E "=========|ERR|OK" $OUT/sanitizer.txt | head -30
fi
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 200 python3 test/gpu/compare_kernels.py --only desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -14
date -u >> $OUT/device.txt
