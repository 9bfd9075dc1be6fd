#!/usr/bin/env bash
# Session 28, call 2: why five corpus kernels are 1.05-1.13x Triton (layernorm_fwd large,
# softmax_online large, matmul odd, cross_entropy_bwd odd, moe_gemm odd): ncu of both and
# both compilers' PTX / SASS.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
TBIN=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
W=/tmp/w2; mkdir -p $W
for inst in layernorm_fwd_kernel/large/fp16 softmax_online_kernel/large/fp16 matmul_kernel/odd/fp16 cross_entropy_bwd_kernel/odd/fp16 moe_gemm_kernel/odd/fp16; do
  name=${inst%%/*}
  for be in triton kiln; do
    TRITON_CACHE_DIR=/tmp/tc2 KILN_CACHE_DIR=/tmp/kc2-$name timeout 100 ncu --target-processes all --kernel-name regex:"^$name" --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats python3 bench/corpus_run.py --filter $inst --$be-only --warmup 2 --reps 3 > $W/ncu-$name-$be.txt 2>&1; echo "ncu $name $be rc=$?"
    grep -E "Duration|Registers Per|Executed Instructions  |Theoretical Occ|Achieved Occ|Warp Cycles Per Issued|DRAM Throughput|Memory Throughput" $W/ncu-$name-$be.txt
  done
  mkdir -p $W/kiln-$name; find /tmp/kc2-$name -type f -exec cp {} $W/kiln-$name/ \;
done
mkdir -p $W/triton
for j in $(grep -lE '"name": "(layernorm_fwd|softmax_online|matmul_kernel|cross_entropy_bwd|moe_gemm)' /tmp/tc2/*/*.json); do cp $(dirname $j)/* $W/triton/ 2>/dev/null; done
for f in $W/triton/*.cubin $W/kiln-*/*; do
  if head -c 4 "$f" | grep -q ELF; then $TBIN/cuobjdump -sass "$f" > "$f.sass" 2>&1; fi
done
ls -R $W | head -80
cd $W && tar czf $OUT/call2.tgz . 
