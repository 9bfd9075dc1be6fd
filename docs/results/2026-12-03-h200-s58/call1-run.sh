#!/usr/bin/env bash
# Session 58, call 1 (H200): LLVM's machine code sinking on and off (KILN_LLVM_OPTIONS=
# -disable-machine-sink) for fla's kkt solve config by config against Triton, and the first
# shard of the kernel corpus under both (each against Triton in its own run).
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
for v in sink nosink; do
  opt=""; [ $v = nosink ] && opt=-disable-machine-sink
  KILN_LLVM_OPTIONS=$opt KILN_CACHE_DIR=/tmp/kc-$v timeout 60 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn \
    --sweep $k --prof-reps 5 --out $r/kiln-$v-sweep.json > $r/kiln-$v-sweep.txt 2>&1
  echo "kiln $v sweep rc=$?"; pack
done
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
for v in sink nosink; do
  python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-$v-sweep.json > $r/compare-sweep-$v.txt 2>&1
  echo "== Triton vs Kiln $v"; head -20 $r/compare-sweep-$v.txt
done
pack
for v in nosink sink; do
  opt=""; [ $v = nosink ] && opt=-disable-machine-sink
  KILN_LLVM_OPTIONS=$opt KILN_CACHE_DIR=/tmp/kcc-$v TRITON_CACHE_DIR=/tmp/tcc timeout 200 python3 bench/corpus_run.py --shard 1/2 \
    --max-seconds 180 --json $r/corpus1-$v.json > $r/corpus1-$v.txt 2> $r/corpus1-$v.err
  echo "corpus 1 $v rc=$?"; tail -4 $r/corpus1-$v.txt; pack
done
