#!/usr/bin/env bash
# Session 42, call 10: why vLLM's three slowest kernels under Kiln (call 9) are slow, for the
# next session: ncu (registers, occupancy, spills, instructions, memory) of prefix prefill
# (1.42), the block-scaled int8 matmul (1.40) and the fused-MoE decode (1.18) under both
# compilers, and Triton's PTX / TTGIR of them (its cache, tarred).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
B=bench/vllm_bench.py
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis"
run() { # op, kernel regex
  TRITON_CACHE_DIR=$OUT/tc timeout 60 $NCU -k regex:"$2" --launch-skip 2 --launch-count 1 python3 $B --only $1 --reps 3 --warmup 1 --prof-reps 0 > $r/ncu-triton-$1.txt 2>&1; echo "ncu triton $1 rc=$?"
  KILN_CACHE_DIR=/tmp/kc timeout 60 $NCU -k regex:"$2" --launch-skip 2 --launch-count 1 python3 -m kiln.run $B --only $1 --reps 3 --warmup 1 --prof-reps 0 > $r/ncu-kiln-$1.txt 2>&1; echo "ncu kiln $1 rc=$?"
}
run prefix_prefill _fwd_kernel
run block_int8_matmul _w8a8_block_int8_matmul
run fused_moe_decode fused_moe_kernel
for w in triton kiln; do for op in prefix_prefill block_int8_matmul fused_moe_decode; do echo "== $w $op"; grep -E "Duration|Registers Per|Achieved Occupancy|Executed Instructions  |Local Memory Spilling Requests  |DRAM Throughput|Compute \(SM\) Throughput" $r/ncu-$w-$op.txt | head -8; done; done
tar czf $r/triton-cache.tgz -C $OUT tc 2>/dev/null
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
