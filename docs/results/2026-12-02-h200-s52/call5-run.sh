#!/usr/bin/env bash
# Session 52, call 5 (final code): tutorial 03's 64 x 256 x 32 / 4 warps / 4 stages config, the
# one left at 0.94-0.99 of Triton (calls 3-4), profiled for the next session: Triton's PTX /
# TTGIR / SASS, Kiln's SASS (Triton's ptxas), both through the harness in alternating rounds,
# ncu (summary and per-instruction stall sampling) of both at 8192^3.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/ncu $r/t $r/k
T=.ext/tools/mm_probe.py P=.ext/tools/probe_mm C=64,256,32,8,4,4
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc5 timeout 100 python3 $T dump $r/t $C > $r/t/dump.txt 2>&1; echo "dump rc=$?"; cat $r/t/dump.txt | tail -2
python3 $T ptxas $r/k $P/kiln-bm64-bn256.ptx > $r/k/ptxas.txt 2>&1; cat $r/k/ptxas.txt | cut -c1-200
SM=$(python3 -c "import json;print([json.loads(l)['shared'] for l in open('$r/t/dump.txt') if l.startswith('{')][0])")
F="$P/kiln-bm64-bn256.ptx:81920 $r/t/triton-bm64-bn256-bk32-s4-w4.cubin:$SM"
for S in 4096 8192; do MM_SIZE=$S MM_ROUNDS=6 timeout 150 python3 $T time $F > $r/time-$S.jsonl 2>&1; echo "time $S rc=$?"; cut -c1-300 $r/time-$S.jsonl; done
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables"
NCUS="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc5 MM_SIZE=8192 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run $C > $r/ncu/triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc5 MM_SIZE=8192 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run $C > $r/ncu/kiln.txt 2>&1; echo "ncu kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc5 MM_SIZE=8192 timeout 100 $NCUS -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run $C > $r/ncu/triton-src.csv 2>&1; echo "ncus triton rc=$?"
KILN_CACHE_DIR=/tmp/kc5 MM_SIZE=8192 timeout 100 $NCUS -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run $C > $r/ncu/kiln-src.csv 2>&1; echo "ncus kiln rc=$?"
grep -E "Duration|Executed Instructions  |Registers Per|Achieved Occupancy|Block Limit (Reg|Shared)|L2 Hit Rate|DRAM Throughput|Compute \(SM\) Throughput|Dynamic Shared" $r/ncu/triton.txt $r/ncu/kiln.txt | cut -c1-160
rm -f $r/t/*.cubin $r/k/*.cubin
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
