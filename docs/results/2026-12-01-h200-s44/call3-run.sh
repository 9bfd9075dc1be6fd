#!/usr/bin/env bash
# Session 44, call 3: why the corpus's attention_kernel (large, 1.04-1.05) and the new
# block_scaled_fp8_matmul_kernel (large, 1.07) trail Triton: ncu of one launch of each under
# both compilers, and the SASS of both (Kiln's cubins from its cache, Triton's from its cache,
# disassembled by Triton's cuobjdump).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats"
for k in attention_kernel/large/fp16 block_scaled_fp8_matmul_kernel/large/fp16; do
  n=${k%%/*}
  TRITON_CACHE_DIR=/tmp/tcs timeout 90 $NCU -k regex:$n --launch-skip 1 --launch-count 1 python3 bench/corpus_run.py --triton-only --filter $k --warmup 1 --reps 2 > $r/ncu-triton-$n.txt 2>&1; echo "ncu triton $n rc=$?"
  KILN_CACHE_DIR=/tmp/kcs timeout 90 $NCU -k regex:$n --launch-skip 1 --launch-count 1 python3 bench/corpus_run.py --kiln-only --filter $k --warmup 1 --reps 2 > $r/ncu-kiln-$n.txt 2>&1; echo "ncu kiln $n rc=$?"
  for w in triton kiln; do echo "== $w $n"; grep -E "Duration|Registers Per|Executed Instructions  |Warp Cycles Per Issued|No Eligible|Achieved Occupancy|Theoretical Occupancy|Dynamic Shared|L1/TEX Hit|L2 Hit|Memory Throughput|Compute \(SM\) Throughput" $r/ncu-$w-$n.txt | head -14; done
done 2>&1 | tee $r/ncu-summary.txt
date -u >> $r/device.txt
CUOBJ=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/cuobjdump
for n in attention_kernel block_scaled_fp8_matmul_kernel; do
  tc=$(find /tmp/tcs -name "$n.cubin" | head -1)
  $CUOBJ -sass "$tc" > $r/triton-$n.sass 2>&1
done
: > $r/kiln.sass
for f in $(find /tmp/kcs -name "*.cubin"); do
  python3 -c "import sys; d=open(sys.argv[1],'rb').read(); i=d.find(b'\x7fELF'); open('/tmp/k.cubin','wb').write(d[i:])" "$f"
  echo "==== $f" >> $r/kiln.sass; $CUOBJ -sass /tmp/k.cubin >> $r/kiln.sass 2>&1
done
wc -l $r/*.sass
tar czf $r/sass.tgz -C $r triton-attention_kernel.sass triton-block_scaled_fp8_matmul_kernel.sass kiln.sass
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r/ncu-summary.txt r/sass.tgz r/device.txt r/ncu-triton-attention_kernel.txt r/ncu-kiln-attention_kernel.txt r/ncu-triton-block_scaled_fp8_matmul_kernel.txt r/ncu-kiln-block_scaled_fp8_matmul_kernel.txt
