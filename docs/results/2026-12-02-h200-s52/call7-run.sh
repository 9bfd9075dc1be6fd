#!/usr/bin/env bash
# Session 52, call 7: mamba's chunk scan at 64 x 32 / 2 warps / 5 stages read 159.9 -> 180.0 us in
# call 6 (one sample; local ptxas 168 -> 176 registers with the rebase) and 64 x 64 / 2 warps /
# 4 stages now spills 8 bytes locally: both re-timed before / now in alternating rounds.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
B="python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_scan --config"
for round in 1 2; do
  for cfg in 8 10; do
    if [ $round = 1 ]; then order="A N"; else order="N A"; fi
    for v in $order; do
      if [ $v = A ]; then lib=/tmp/before/libkiln.so; else lib=/tmp/kiln-bundle/python/kiln/libkiln.so; fi
      KILN_LIBRARY=$lib KILN_CACHE_DIR=/tmp/kc-$v timeout 40 $B $cfg 2>/dev/null | grep "^chunk_scan" | sed "s/^/$v r$round /" | tee -a $r/scan.txt
    done
  done
done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
