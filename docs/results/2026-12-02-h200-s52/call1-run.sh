#!/usr/bin/env bash
# Session 52, call 1: why tutorial 03's matmul at 128 x 128 x 32 / 4 warps / 4 stages runs at
# 0.92 of Triton's TFLOP/s. Triton's PTX / TTGIR / SASS beside Kiln's; both compilers' PTX timed
# through one harness (driver JIT and Triton's ptxas), a hand-edited Kiln variant (the loop's
# second barrier removed); the tutorial's 8 fp16 configs; ncu stall sampling of both.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/t $r/k
T=.ext/tools/mm_probe.py
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc1 timeout 120 python3 $T dump $r/t 128,128,32,8,4,4 > $r/t/dump.txt 2>&1; echo "dump rc=$?"
TRITON_CACHE_DIR=/tmp/tc1 timeout 120 python3 $T dump $r/t 128,256,64,8,3,8 >> $r/t/dump.txt 2>&1; echo "dump rc=$?"
cat $r/t/dump.txt | tail -4
python3 $T ptxas $r/k .ext/tools/probe_mm/*.ptx > $r/k/ptxas.txt 2>&1; cat $r/k/ptxas.txt
cp .ext/tools/probe_mm/*.ptx $r/k/
TS=$(python3 -c "import json;print([json.loads(l)['shared'] for l in open('$r/t/dump.txt') if l.startswith('{')])")
echo "triton shared: $TS"
S1=$(python3 -c "import json;print([json.loads(l)['shared'] for l in open('$r/t/dump.txt') if l.startswith('{')][0])")
S2=$(python3 -c "import json;print([json.loads(l)['shared'] for l in open('$r/t/dump.txt') if l.startswith('{')][1])")
F="$r/k/kiln-bm128-bn128.ptx:65536 $r/k/kiln-bm128-bn128.cubin:65536 $r/k/kiln-bm128-bn128-nobar2.ptx:65536 $r/k/kiln-bm128-bn128-nobar2.cubin:65536 $r/t/triton-bm128-bn128-bk32-s4-w4.ptx:$S1 $r/t/triton-bm128-bn128-bk32-s4-w4.cubin:$S1 $r/k/kiln-bm128-bn256.ptx:147456 $r/t/triton-bm128-bn256-bk64-s3-w8.cubin:$S2"
for round in 1 2; do timeout 150 python3 $T time $F > $r/time-$round.jsonl 2>&1; echo "time rc=$?"; done
cat $r/time-*.jsonl | cut -c1-260
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 200 python3 bench/matmul_bench.py --sizes 4096 --json $r/mm.json > $r/mm.txt 2>&1; echo "matmul rc=$?"; tail -14 $r/mm.txt
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run $T run > $r/k/run.txt 2>&1; echo "kiln run rc=$?"; cat $r/k/run.txt
for f in $(find /tmp/kc2 -type f -name "*.cubin"); do python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(d[d.index(b'\\n')+1:])" $f $r/k/jit-$(basename $f); done
for c in $r/k/jit-*.cubin; do [ -f "$c" ] && cuobjdump -sass $c > $c.sass 2>&1; done
NCU="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc1 timeout 150 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run > $r/t/ncu-src.csv 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 150 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run > $r/k/ncu-src.csv 2>&1; echo "ncu kiln rc=$?"
NCU2="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats"
TRITON_CACHE_DIR=/tmp/tc1 timeout 120 $NCU2 -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run > $r/t/ncu-sum.txt 2>&1; echo "ncu2 triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 120 $NCU2 -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run > $r/k/ncu-sum.txt 2>&1; echo "ncu2 kiln rc=$?"
grep -E "Duration|Registers Per|Achieved Occupancy|Executed Ipc A|Shared Memory Configuration Size|Dynamic Shared|Block Limit|Bank" $r/t/ncu-sum.txt $r/k/ncu-sum.txt | cut -c1-200
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
