#!/usr/bin/env bash
# Session 38, call 5: ncu instruction statistics and source counters of tutorial 09's fp8
# descriptor persistent kernel (128 x 256 x 128, 3 stages, 8 warps, no subtile; 8192 x 8192 x 512)
# under Triton and Kiln after the paired fp8 conversion; Triton's PTX and TTGIR of it.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
S=docs/results/2026-11-30-h200-s38/t09_one_config.py
NCU="ncu --kernel-name regex:matmul_kernel_descriptor_persistent --launch-skip 3 --launch-count 1 --section SpeedOfLight --section InstructionStats --section WarpStateStats --section SourceCounters --section SchedulerStats"
TRITON_CACHE_DIR=/tmp/tc timeout 100 $NCU python3 $S $T09 256 128 3 8 False > $OUT/ncu-triton.txt 2>&1; echo "triton rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 100 $NCU python3 -m kiln.run $S $T09 256 128 3 8 False > $OUT/ncu-kiln.txt 2>&1; echo "kiln rc=$?"
find /tmp/tc -name "matmul_kernel_descriptor_persistent*" \( -name "*.ptx" -o -name "*.ttgir" \) -exec cp {} $OUT/ \;
date -u >> $OUT/device.txt
for w in triton kiln; do echo "== $w"; grep -E "^ms|Duration|Executed Instructions  |Issued Instructions  |Elapsed Cycles|Warp Cycles Per Issued" $OUT/ncu-$w.txt | head -12; done
