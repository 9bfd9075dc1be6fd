#!/usr/bin/env bash
# Session 40, call 7: the tutorial LayerNorm at 65536 x 2048 and 4096 x 8192 (call 6: forward 1.11-1.21x
# Triton at 65536 x 2048), ln-bench at the session's start (ba88039) against the final code
# (both stripped, in .device/base), alternating, each with KILN_OCCUPANCY=auto and off.
set -u
cd "$(dirname "$0")/.."
r=$OUT/r; mkdir -p $r
xz -dc .device/base/ln-bench.xz > /tmp/ln-bench-base; xz -dc .device/base/ln-bench-new.xz > /tmp/ln-bench-new
chmod +x /tmp/ln-bench-base /tmp/ln-bench-new
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
A="--shapes 65536x2048,4096x8192,4096x4096 --dtypes fp16,bf16,fp32 --no-compile-times --no-launch-overhead"
for round in 1 2; do
  for occ in auto off; do
    for b in base new; do
      bin=/tmp/ln-bench-$b
      KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kc-$b-$occ timeout 60 $bin $A --json $r/$b-$occ-$round.json > $r/$b-$occ-$round.txt 2>&1; echo "$b $occ $round rc=$?"
    done
  done
done
python3 - $r <<'PY'
import json, sys, glob, collections
r = sys.argv[1]; t = collections.defaultdict(list)
for f in sorted(glob.glob(r + "/*.json")):
    name = f.split("/")[-1].rsplit("-", 1)[0]
    d = json.load(open(f))
    rows = d.get("results", d) if isinstance(d, dict) else d
    for x in rows:
        key = (x.get("dtype"), x.get("M"), x.get("N"))
        t[(name, key)].append((x.get("fwd_ms") or x.get("forward_ms"), x.get("bwd_ms") or x.get("backward_ms")))
for k in sorted(t): print(k, t[k])
PY
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
