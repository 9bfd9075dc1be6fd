#!/usr/bin/env bash
# Session 40, call 1: Liger-Kernel's operators (ead96b6, unmodified, .ext/liger) timed under
# Triton 3.6 and under Kiln's drop-in, alternating, two rounds (bench/liger_bench.py).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
for round in 1 2; do
  TRITON_CACHE_DIR=/tmp/tc$round timeout 200 python3 bench/liger_bench.py --out $r/triton$round.json > $r/triton$round.log 2>&1; echo "triton$round rc=$?"
  KILN_CACHE_DIR=/tmp/kc$round timeout 150 python3 -m kiln.run --report bench/liger_bench.py --out $r/kiln$round.json > $r/kiln$round.log 2>&1; echo "kiln$round rc=$?"
done
python3 bench/liger_bench.py --compare $r/triton1.json $r/kiln1.json $r/triton2.json $r/kiln2.json | tee $r/compare.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
