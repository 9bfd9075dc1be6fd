#!/usr/bin/env bash
# Session 42, call 5 (call4-run.sh: the final code against a build with every run sequential; the session start is call 4's base): the tutorial LayerNorm, ln-bench at the session's start (5820d8b) against
# the final code (617c579: loop-deletion, reductions in Triton's order up to 16 registers), both
# stripped in .device/base, alternating, three rounds (call 2 / 3: bf16 4096 x 8192 backward
# 1.24 / 1.13 of Triton, 0.99 in session 41 and 1.25 in session 40: is it the code or the run?).
set -u
cd "$(dirname "$0")/.."
r=$OUT/r; mkdir -p $r
xz -dc .device/base/ln-bench-new.xz > /tmp/ln-bench-new
# seq: 617c579 with every run sequential (kSequentialRegisters = 1024, as f4ed7b3).
xz -dc .device/base/ln-bench-seq.xz > /tmp/ln-bench-seq
chmod +x /tmp/ln-bench-new /tmp/ln-bench-seq
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
A="--shapes 4096x8192,65536x2048,4096x4096,4096x1024 --dtypes fp16,bf16,fp32 --no-compile-times --no-launch-overhead"
for round in 1 2 3; do
  for b in new seq; do
    KILN_CACHE_DIR=/tmp/kc-$b-$round timeout 60 /tmp/ln-bench-$b $A --json $r/$b-$round.json > $r/$b-$round.txt 2>&1; echo "$b $round rc=$?"
  done
done
python3 - $r <<'PY'
import json, sys, glob, collections
r = sys.argv[1]; t = collections.defaultdict(list)
for f in sorted(glob.glob(r + "/*.json")):
    name = f.split("/")[-1].rsplit("-", 1)[0]
    d = json.load(open(f))
    for x in d["results"]:
        t[(x["dtype"], x["M"], x["N"])].append((name, round(x["fwd_ms"], 4), round(x["bwd_ms"], 4)))
for k in sorted(t):
    m = {b: [v for v in t[k] if v[0] == b] for b in ("new", "seq")}
    f = {b: sum(v[1] for v in m[b]) / len(m[b]) for b in m}
    w = {b: sum(v[2] for v in m[b]) / len(m[b]) for b in m}
    print("%-22s fwd new %.4f seq/new %.3f | bwd new %.4f seq/new %.3f | bwd runs new %s seq %s" % (
        k, f["new"], f["seq"] / f["new"], w["new"], w["seq"] / w["new"],
        [v[2] for v in m["new"]], [v[2] for v in m["seq"]]))
PY
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
