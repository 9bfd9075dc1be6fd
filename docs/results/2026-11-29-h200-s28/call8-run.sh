#!/usr/bin/env bash
# Session 28, call 8: KILN_OCCUPANCY=auto (the default: the first large grids alternate between the
# kernel's own build and the register-capped one, timed; the faster stays): the corpus's capped
# candidates against Triton, the tuned fused LayerNorm (layernorm_best kiln column) auto vs off.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
for f in layernorm_fwd_kernel/large softmax_online_kernel/large cross_entropy_bwd_kernel/odd cross_entropy_fwd_kernel/large row_sum_kernel/large; do
  KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc8 timeout 40 python3 bench/corpus_run.py --filter $f > $OUT/corpus-$(echo $f | tr / -).txt 2>&1; echo "$f rc=$?"
  grep -E "ratio|own build .* ms" $OUT/corpus-$(echo $f | tr / -).txt | grep -v "^kernel " | cut -c1-200
done
for occ in off auto; do
  KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln8 timeout 50 python3 bench/layernorm_best.py --quick --reps 12,25 --columns kiln --dtype fp16 --mode fwd,fwdbwd --M 65536 --max-seconds 40 --out $OUT/$occ > $OUT/ln-best-$occ.txt 2>&1; echo "ln $occ rc=$?"
  grep -E "^\| fwd" $OUT/ln-best-$occ.txt | head -12
done
cd $OUT && tar czf call8.tgz *.txt off auto && rm -rf *.txt off auto
