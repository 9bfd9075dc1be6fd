#!/usr/bin/env bash
# Session 56, call 1 (H100; code of 9f52b1c): the first H100 since the twenty-first session.
# Launch floor (issue 17): gpu_launch_breakdown.py twice (pinned), gpu_dropin_bench.py.
# LayerNorm (issue 11): layernorm_fast_check --quick (every variant against fp64), then the
# forward side by side (fp16, bf16; 4096 / 65536 rows; 512..262144 columns; every column) with
# the plan retuned on the H200 in sessions 22 and 24.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { tar czf $OUT/results.tgz -C $OUT r; }
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; date -u; } > $r/info.txt
for i in 1 2; do
  (cd python/tests && KILN_CACHE_DIR=/tmp/kl$i timeout 60 taskset -c 3 python3 gpu_launch_breakdown.py) > $r/launch-$i.txt 2>&1
done
(cd python/tests && KILN_CACHE_DIR=/tmp/kl3 timeout 90 python3 gpu_dropin_bench.py) > $r/dropin.txt 2>&1
cat $r/launch-1.txt $r/launch-2.txt $r/dropin.txt | grep -v "^{"
pack; date -u >> $r/info.txt
KILN_CACHE_DIR=/tmp/kc timeout 150 python3 bench/layernorm_fast_check.py --quick > $r/fastcheck.txt 2>&1
echo "fastcheck rc=$?"; tail -2 $r/fastcheck.txt; grep -i fail $r/fastcheck.txt | grep -v " 0 failed" | head
pack; date -u >> $r/info.txt
cols=kiln,tutorial,torch,compiled,flash,copy
KILN_CACHE_DIR=/tmp/kc timeout 250 python3 bench/layernorm_best.py --out $r/ln --tag fwd --mode fwd \
  --dtype fp16 --columns $cols --max-seconds 200 > $r/ln-fwd-fp16.log 2>&1
echo "ln fwd fp16 rc=$?"; grep "^fwd" $r/ln-fwd-fp16.log
date -u >> $r/info.txt; pack
KILN_CACHE_DIR=/tmp/kc timeout 150 python3 bench/layernorm_best.py --out $r/ln --tag fwd --mode fwd \
  --dtype bf16 --N 512,2048,8192,16384,32768,131072 --columns $cols --max-seconds 110 > $r/ln-fwd-bf16.log 2>&1
echo "ln fwd bf16 rc=$?"; grep "^fwd" $r/ln-fwd-bf16.log
date -u >> $r/info.txt; pack
