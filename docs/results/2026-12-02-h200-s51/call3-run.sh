#!/usr/bin/env bash
# Session 51, call 3: why the attention forward at HEAD_DIM 128, 128 x 128 blocks, 4 warps runs
# 1.5-1.9x Triton's time (ptxas: "wgmma.mma_async instructions are serialized due to
# insufficient register resources", 255 registers and spills): Triton's registers, spills, PTX,
# TTGIR and SASS for the same kernel and configs, and Kiln's PTX (made here, carried) assembled
# with the same ptxas. No timing.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc-probe timeout 200 python3 .ext/tools/probe_attn_w4.py /tmp/probe 2>&1 | tail -20
for f in /tmp/probe/*.sass; do echo "$(basename $f): $(grep -c 'STL\|LDL' $f) local accesses, $(grep -c 'HGMMA' $f) HGMMA, $(grep -c 'WARPGROUP.DEPBAR\|WARPGROUP.ARRIVE' $f) warpgroup waits/arrives"; done
tar czf $OUT/results.tgz -C /tmp probe
