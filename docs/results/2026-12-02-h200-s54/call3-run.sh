#!/usr/bin/env bash
# Session 54, call 3: the other GPU families whose kernels the warp-shuffle conversions
# change (blockptr, compat, scan, sort), and fla's gated delta net kernels timed config by
# config (fla_bench --sweep: each autotune config forced in turn, profiler time) under
# both compilers: the kkt solve, l2norm, recompute_w_u and the recurrent state; the
# register use of Triton's and Kiln's kkt solve cubins.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only blockptr,compat,scan,sort > $r/compare-families.txt 2>&1
echo "compare rc=$?"; tail -1 $r/compare-families.txt; grep -E "^FAIL" $r/compare-families.txt | head -20
date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel,l2norm_fwd_kernel,recompute_w_u_fwd_kernel,chunk_gated_delta_rule_fwd_kernel_h_blockdim64
KILN_CACHE_DIR=/tmp/kc timeout 100 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/kiln-sweep.json > $r/kiln-sweep.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 280 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton rc=$?"; date -u >> $r/device.txt
python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-sweep.json > $r/compare-sweep.txt 2>&1
cat $r/compare-sweep.txt
for f in $(grep -l "kkt_solve_kernel" -r /tmp/tc --include=*.json 2>/dev/null | head -8); do
  d=$(dirname $f); c=$(ls $d/*.cubin 2>/dev/null | head -1); [ -n "$c" ] || continue
  echo "$(python3 -c "import json,sys; j=json.load(open('$f')); print('warps', j.get('num_warps'), 'shared', j.get('shared'))" 2>/dev/null) $(cuobjdump -res-usage $c 2>/dev/null | grep -o 'REG:[0-9]*' | head -1)"
done > $r/triton-kkt-regs.txt 2>&1
cat $r/triton-kkt-regs.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
