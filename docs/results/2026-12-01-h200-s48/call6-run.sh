#!/usr/bin/env bash
# Session 48, call 6 (a56aed3): Liger's dGU (1.09x in situ, the forward's best config BM128
# BN128 BK64 G8 w8 s3) under both compilers: do_bench and ncu (summary, per-SASS-instruction
# stall sampling), for the next session to start from.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python:$PWD/.ext/liger/src KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/k $r/t
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 60 python3 .ext/tools/liger_configs.py dGU > $r/t/run.txt 2>&1; echo "triton rc=$?"; tail -1 $r/t/run.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 60 python3 -m kiln.run .ext/tools/liger_configs.py dGU > $r/k/run.txt 2>&1; echo "kiln rc=$?"; tail -1 $r/k/run.txt
NCU="ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis"
SRC="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc6 timeout 60 $NCU -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 .ext/tools/liger_configs.py dGU > $r/t/ncu.txt 2>&1
KILN_CACHE_DIR=/tmp/kc6 timeout 60 $NCU -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 -m kiln.run .ext/tools/liger_configs.py dGU > $r/k/ncu.txt 2>&1
TRITON_CACHE_DIR=/tmp/tc6 timeout 60 $SRC -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 .ext/tools/liger_configs.py dGU > $r/t/ncu-src.csv 2>&1
KILN_CACHE_DIR=/tmp/kc6 timeout 60 $SRC -k regex:_swiglu_kernel_backward_dGU --launch-skip 1 --launch-count 1 python3 -m kiln.run .ext/tools/liger_configs.py dGU > $r/k/ncu-src.csv 2>&1
for w in t k; do echo "== $w"; grep -E "Duration|Executed Instructions  |Compute \(SM\) Throughput|Memory Throughput|Warp Cycles Per Issued" $r/$w/ncu.txt | head -8; done
cp $(find /tmp/tc6 -name "_swiglu_kernel_backward_dGU.ptx" | head -1) $r/t/ 2>/dev/null
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
