#!/usr/bin/env bash
# Session 28, call 7: Kiln's fused LayerNorm (issue 11's kernels, layernorm_best.py's kiln column)
# with the register-capped builds off and on, fp16 / bf16, M = 4096 and 65536, --quick widths.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
for occ in off on; do
  KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln7 timeout 110 python3 bench/layernorm_best.py --quick --columns kiln --dtype fp16,bf16 --M 4096,65536 --max-seconds 90 --out $OUT/$occ > $OUT/ln-best-$occ.txt 2>&1; echo "$occ rc=$?"
done
tail -30 $OUT/ln-best-on.txt
cd $OUT && tar czf call7.tgz device.txt ln-best-*.txt off on && rm -rf device.txt ln-best-*.txt off on
