#!/usr/bin/env bash
# Session 58, call 5 (H200): warp reductions emitted one value's butterfly rounds after the
# other's (Triton's order) instead of round by round across values. One library, the old order
# behind a temporary switch (KILN_EXPERIMENT_ROUNDS_FIRST=1; disk cache off so that the two
# orders never share an entry): SASS of the kkt solve's BK=64 w1 build in the new order; its
# sweep under both orders and Triton; the corpus kernels whose PTX the order changes (attention,
# col_max, row_dot, row_sum) under both, each against Triton; the fused LayerNorm forward at the
# widths whose multi-row kernels change (512-2048), both orders.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
for v in bfly rounds; do
  ptxas -arch=sm_90a -v .device/kkt-$v.ptx -o /tmp/kkt-$v.cubin > $r/kkt-$v.ptxas.txt 2>&1
  cuobjdump --dump-sass /tmp/kkt-$v.cubin > $r/kkt-$v.sass 2>&1
done
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
for v in new old; do
  e=""; [ $v = old ] && e="KILN_EXPERIMENT_ROUNDS_FIRST=1"
  env $e KILN_CACHE=0 timeout 60 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn \
    --sweep $k --prof-reps 5 --out $r/kiln-$v-sweep.json > $r/kiln-$v-sweep.txt 2>&1
  echo "kiln $v sweep rc=$?"; pack
done
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
for v in new old; do
  python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-$v-sweep.json > $r/compare-sweep-$v.txt 2>&1
  echo "== $v"; head -9 $r/compare-sweep-$v.txt
done
C=attention_kernel,col_max_kernel,row_dot_kernel,row_sum_kernel
for v in new old; do
  e=""; [ $v = old ] && e="KILN_EXPERIMENT_ROUNDS_FIRST=1"
  env $e KILN_CACHE=0 TRITON_CACHE_DIR=/tmp/tcc timeout 100 python3 bench/corpus_run.py --filter $C \
    --json $r/corpus-$v.json > $r/corpus-$v.txt 2>&1
  echo "corpus $v rc=$?"; tail -2 $r/corpus-$v.txt; pack
done
for v in new old; do
  e=""; [ $v = old ] && e="KILN_EXPERIMENT_ROUNDS_FIRST=1"
  env $e KILN_CACHE=0 timeout 70 python3 bench/layernorm_best.py --out $r/ln --tag $v --mode fwd \
    --dtype fp16,bf16 --M 4096,65536 --N 512,1024,2048 --columns kiln --max-seconds 55 > $r/ln-$v.log 2>&1
  echo "ln $v rc=$?"; grep "^fwd" $r/ln-$v.log | head -12; pack
done
