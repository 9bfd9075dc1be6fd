#!/usr/bin/env bash
# Session 55, call 1 (code of 622faab: autotuners pause the occupancy measurement, ca0d3c5):
# session 54's l2norm tuner check (call4-tuner.py) under Kiln as it is, whose first tuning
# had timed 17 of 25 configs at 1.3-3.9x; then fla's gated delta net / KDA / GLA forward
# under both compilers with every autotuning config's time (kernel_timing "tuning"; Kiln at
# Triton's 25 + 100 ms budget) and the configs each picked, outputs compared.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
s=docs/results/2026-12-02-h200-s54/call4-tuner.py
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 60 python3 -m kiln.run $s > $r/kiln-tuner.txt 2>&1; echo "kiln tuner rc=$?"
grep -v "^kiln:" $r/kiln-tuner.txt | tail -28
date -u >> $r/device.txt
ops=chunk_gdn,chunk_kda,chunk_gla
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc timeout 100 python3 -m kiln.run bench/fla_bench.py --fwd-only --only $ops \
  --reps 20 --warmup 3 --prof-reps 5 --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 250 python3 bench/fla_bench.py --fwd-only --only $ops \
  --reps 20 --warmup 3 --prof-reps 5 --out $r/triton.json > $r/triton.txt 2>&1
echo "triton rc=$?"; date -u >> $r/device.txt
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
cat $r/compare.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
