#!/usr/bin/env bash
# Session 57, call 4 (H200): Triton's ncu source counters of the kkt solve's BK=64 w1 build
# (call 3's timed out under Triton's compile); the chunked LayerNorm forward's chunk / warp
# candidates at 65536 x 16384 and 4096 x 16384 (fp16), where torch.compile's two-pass kernel
# measured 4176 / 3771 GB/s against Kiln's 3932 / 3537 in call 1.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
for m in 65536 4096; do
KILN_CACHE_DIR=/tmp/kl timeout 100 python3 bench/layernorm_best.py --out $r/ln --tag tune$m --mode fwd --tune --tune-keys chunk \
  --dtype fp16 --M $m --N 16384 --columns kiln,compiled --max-seconds 80 > $r/ln-tune-$m.log 2>&1
echo "tune rc=$?"; grep "tune:\|^fwd" $r/ln-tune-$m.log; pack
done
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
SRC="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc timeout 200 $SRC -k regex:kkt_solve --launch-skip 1 --launch-count 1 \
  python3 bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "BK=64 w1" --prof-reps 1 --out /tmp/x2.json > $r/src-triton.csv 2> $r/src-triton.err
echo "src triton rc=$?"; gzip $r/src-*.csv; tail -3 $r/src-triton.err; pack
