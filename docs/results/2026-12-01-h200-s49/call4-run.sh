#!/usr/bin/env bash
# Session 49, call 4 (2cb3b01, no code change): Triton's own stages of Liger's dGU (TTGIR, LLVM
# IR, PTX) for the next session's register study (Triton 145 registers, Kiln 255).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/.ext/liger/src
r=$OUT/r; mkdir -p $r
TRITON_CACHE_DIR=/tmp/tc4 timeout 120 python3 .ext/tools/liger_configs.py dGU > $r/run.txt 2>&1; echo "triton rc=$?"
d=$(dirname "$(find /tmp/tc4 -name '_swiglu_kernel_backward_dGU.ptx' | head -1)")
ls $d
cp $d/_swiglu_kernel_backward_dGU.{ttgir,llir,ptx} $r/ 2>/dev/null
tar czf $OUT/results.tgz -C $OUT r
