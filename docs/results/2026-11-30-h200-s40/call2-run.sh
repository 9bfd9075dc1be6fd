#!/usr/bin/env bash
# Session 40, call 2: why Liger's swiglu / layer_norm forward / cross-entropy / sparsemax forward
# kernels run slower under Kiln (call 1): ncu of each under both compilers (the full mode's
# warm launch), and both compilers' SASS (Triton's cache cubins; Kiln's cached cubins, header
# line stripped) for cuobjdump.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/sass
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats"
B="bench/liger_bench.py --reps 2 --warmup 1 --prof-reps 0"
run() {  # op regex skip count
  TRITON_CACHE_DIR=/tmp/tc timeout 100 $NCU -k regex:"$2" --launch-skip $3 --launch-count $4 python3 $B --only $1 > $r/ncu-triton-$1.txt 2>&1; echo "ncu triton $1 rc=$?"
  KILN_CACHE_DIR=/tmp/kc timeout 60 $NCU -k regex:"$2" --launch-skip $3 --launch-count $4 python3 -m kiln.run $B --only $1 > $r/ncu-kiln-$1.txt 2>&1; echo "ncu kiln $1 rc=$?"
}
run swiglu _swiglu_ 4 2
run layer_norm _layer_norm_forward 4 1
run cross_entropy liger_cross_entropy_kernel 4 1
run sparsemax _sparsemax_forward 4 1
for f in $(find /tmp/tc -name '*.cubin'); do n=$(basename $f .cubin); cuobjdump -sass $f > $r/sass/triton-$n.sass 2>&1; cp ${f%.cubin}.ptx $r/sass/triton-$n.ptx 2>/dev/null; done
i=0; for f in $(find /tmp/kc -name '*.cubin'); do i=$((i+1)); tail -c +$(( $(head -1 $f | wc -c) + 1 )) $f > /tmp/k$i.cubin; n=$(cuobjdump -sass /tmp/k$i.cubin 2>&1 | grep -m1 -o 'Function : [A-Za-z0-9_]*' | cut -d' ' -f3); cuobjdump -sass /tmp/k$i.cubin > $r/sass/kiln-${n:-k$i}.sass 2>&1; done
ls $r/sass
for w in triton kiln; do for op in swiglu layer_norm cross_entropy sparsemax; do echo "== $w $op"; grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Memory Throughput|DRAM Throughput|Executed Ipc A|Achieved Occupancy|Theoretical Occ|No Eligible|Warp Cycles Per Issued" $r/ncu-$w-$op.txt | head -24; done; done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
