#!/usr/bin/env bash
# Session 39, call 1: int8 descriptor blocks by TMA (compare_kernels' tma, desc and dot families,
# with the int8 cases tma_mm_bt / tma_dev_mm / tma_store_tiles); ncu of tutorial 06's backward at
# HEAD_DIM 128 (N_CTX 4096, not causal) under Triton and Kiln, with Triton's compiled artifacts.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 230 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |int8|i8" $OUT/compare.txt | cut -c1-200 | tail -20
date -u >> $OUT/device.txt
T06=$PWD/.ext/triton-tutorials/06-fused-attention.py
S=docs/results/2026-11-30-h200-s39/t06_bwd_one.py
NCU="ncu --kernel-name regex:_attn_bwd$ --launch-skip 2 --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SourceCounters"
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 $S $T06 128 4096 > $OUT/time-triton.txt 2>&1; echo "triton time rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 60 python3 -m kiln.run $S $T06 128 4096 > $OUT/time-kiln.txt 2>&1; echo "kiln time rc=$?"
tail -1 $OUT/time-triton.txt $OUT/time-kiln.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 $NCU python3 $S $T06 128 4096 > $OUT/ncu-triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 100 $NCU python3 -m kiln.run $S $T06 128 4096 > $OUT/ncu-kiln.txt 2>&1; echo "ncu kiln rc=$?"
find /tmp/tc -name "_attn_bwd.*" -exec cp {} $OUT/ \;
ls $OUT
date -u >> $OUT/device.txt
for w in triton kiln; do echo "== $w"; grep -E "Duration|Executed Instructions  |Elapsed Cycles|Registers Per|Spill|Achieved Occ|Theoretical Occ|Local" $OUT/ncu-$w.txt | head -14; done
