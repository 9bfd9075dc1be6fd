#!/usr/bin/env bash
# Session 41, call 2: why five lightllm kernels run slower under Kiln (call 1): ncu of each under
# both compilers and both compilers' SASS; token_att1 against an fp64 reference under both
# (call 1's checksums differed: an fp16 sum in another order, or an error?).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/sass
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tca timeout 60 python3 docs/results/2026-12-01-h200-s41/att1_accuracy.py 2>&1 | tail -2
KILN_CACHE_DIR=/tmp/kca timeout 60 python3 -m kiln.run docs/results/2026-12-01-h200-s41/att1_accuracy.py 2>&1 | tail -2
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats --section SourceCounters"
B="bench/lightllm_bench.py --reps 2 --warmup 1 --prof-reps 0"
run() {  # op kernel-regex skip count
  TRITON_CACHE_DIR=/tmp/tc timeout 80 $NCU -k regex:"$2" --launch-skip $3 --launch-count $4 python3 $B --only $1 > $r/ncu-triton-$1.txt 2>&1; echo "ncu triton $1 rc=$?"
  KILN_CACHE_DIR=/tmp/kc timeout 60 $NCU -k regex:"$2" --launch-skip $3 --launch-count $4 python3 -m kiln.run $B --only $1 > $r/ncu-kiln-$1.txt 2>&1; echo "ncu kiln $1 rc=$?"
}
run softmax_reducev _fwd_kernel 2 1
run gqa_flash_decoding _fwd_kernel_flash_decode_stage1 2 1
run gelu_and_mul _gelu_and_mul 2 1
run softmax_topk softmax_topk 2 1
run token_att1 _fwd_kernel_token_att1 2 1
run flash_decoding _fwd_kernel_flash_decode_stage1 2 1
for f in $(find /tmp/tc -name '*.cubin'); do n=$(basename $f .cubin)-$(basename $(dirname $f) | cut -c1-6); cuobjdump -sass $f > $r/sass/triton-$n.sass 2>&1; cp ${f%.cubin}.ptx $r/sass/triton-$n.ptx 2>/dev/null; cp ${f%.cubin}.ttgir $r/sass/triton-$n.ttgir 2>/dev/null; done
i=0; for f in $(find /tmp/kc -name '*.cubin'); do i=$((i+1)); tail -c +$(( $(head -1 $f | wc -c) + 1 )) $f > /tmp/k$i.cubin; n=$(cuobjdump -sass /tmp/k$i.cubin 2>&1 | grep -m1 -o 'Function : [A-Za-z0-9_]*' | cut -d' ' -f3); cuobjdump -sass /tmp/k$i.cubin > $r/sass/kiln-${n:-k$i}-$i.sass 2>&1; done
ls $r/sass
for w in triton kiln; do for op in softmax_reducev gqa_flash_decoding gelu_and_mul softmax_topk token_att1 flash_decoding; do echo "== $w $op"; grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Memory Throughput|DRAM Throughput|Executed Ipc A|Achieved Occupancy|Theoretical Occ|Executed Instructions  |Warp Cycles Per Issued" $r/ncu-$w-$op.txt | head -14; done; done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
