#!/usr/bin/env bash
# Session 56, call 2 (H100; code of 9f52b1c): LayerNorm forward+backward side by side (issue 11):
# Kiln, torch.compile (the best other at most shapes on the H100 before) and the copy ceiling;
# then the forward at 65536 rows (call 1 reached only 4096 rows).
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/info.txt; tar czf $OUT/results.tgz -C $OUT r; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $r/info.txt
ln() { tag=$1; shift; KILN_CACHE_DIR=/tmp/kc timeout $1 python3 bench/layernorm_best.py --out $r/ln --tag fwdbwd \
  --mode fwdbwd --max-seconds $(( $1 - 40 )) "${@:2}" > $r/ln-$tag.log 2>&1; echo "ln $tag rc=$?"; grep "^fwdbwd" $r/ln-$tag.log; pack; }
ln fp16-4096 170 --dtype fp16 --M 4096 --columns kiln,compiled,copy
ln fp16-65536 150 --dtype fp16 --M 65536 --N 512,1024,2048,4096,8192,16384,32768 --columns kiln,compiled,copy
ln bf16 90 --dtype bf16 --N 2048,8192,16384,32768,262144 --columns kiln,copy
KILN_CACHE_DIR=/tmp/kc timeout 120 python3 bench/layernorm_best.py --out $r/ln --tag fwd65536 --mode fwd --dtype fp16 --M 65536 \
  --N 512,2048,8192,16384,32768,65536 --columns kiln,compiled,copy --max-seconds 90 > $r/ln-fwd-65536.log 2>&1
echo "ln fwd 65536 rc=$?"; grep "^fwd" $r/ln-fwd-65536.log; pack
