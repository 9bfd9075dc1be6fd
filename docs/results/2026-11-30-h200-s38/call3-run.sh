#!/usr/bin/env bash
# Session 38, call 3: ncu of tutorial 09's fp8 descriptor persistent kernel at one config
# (BLOCK 128 x 256 x 128, 3 stages, 8 warps, no epilogue subtile; 8192 x 8192 x 512) under Triton
# and Kiln: where Kiln's 77 us against Triton's 62 us goes. Then the same config with the
# epilogue subtile (Kiln 139 us, Triton 68).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
S=docs/results/2026-11-30-h200-s38/t09_one_config.py
NCU="ncu --kernel-name regex:matmul_kernel_descriptor_persistent --launch-skip 3 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis_Tables --section SchedulerStats"
TRITON_CACHE_DIR=/tmp/tc timeout 100 $NCU python3 $S $T09 256 128 3 8 False > $OUT/ncu-triton.txt 2>&1; echo "triton rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 100 $NCU python3 -m kiln.run $S $T09 256 128 3 8 False > $OUT/ncu-kiln.txt 2>&1; echo "kiln rc=$?"
date -u >> $OUT/device.txt
for w in triton kiln; do echo "== $w"; grep -E "^ms|Duration|Registers Per|Shared Memory Config|Dynamic Shared|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L2 Cache Throughput|Stall|Warp Cycles Per Issued|Issued Warp Per|No Eligible|Bank|Block Limit|Theoretical Occ" $OUT/ncu-$w.txt | head -40; done
python3 $S $T09 256 128 3 8 True 2>&1 | tail -1
python3 -m kiln.run $S $T09 256 128 3 8 True 2>&1 | tail -1
