#!/usr/bin/env bash
# Session 51, call 1: the slot budget counts what each dot stages per operand (a slotted K / V
# read in place, P in wgmma's register A, a register-only conversion: none) and a reduction's
# cross-warp partials instead of a 16 KB floor: attention at HEAD_DIM 128 with 128-key blocks
# gets 3 slots of K and V where it had 2. Only those attention configs' PTX changed (444 test
# RUN lines + Liger's MLP configs + the 288 corpus kernels identical). Triton, Kiln before
# (session 50's library) and Kiln now on both attention forwards, every config with BN 128.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
for t in desc ptr; do
  A=.ext/tools/attn_epilogue_ab.py; [ $t = ptr ] && A=.ext/tools/attn_ptr_ab.py
  TRITON_CACHE_DIR=/tmp/tc-$t timeout 150 python3 $A BN128 > $r/$t-triton.jsonl 2>&1; echo "$t triton rc=$?"
  for round in 1 2; do
    KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcb-$t timeout 60 python3 -m kiln.run $A BN128 > $r/$t-before-$round.jsonl 2>&1; echo "$t before rc=$?"
    KILN_CACHE_DIR=/tmp/kca-$t timeout 60 python3 -m kiln.run $A BN128 > $r/$t-after-$round.jsonl 2>&1; echo "$t after rc=$?"
  done
done
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys, math
r = sys.argv[1]
def load(name):
    out = {}
    try:
        for line in open(f"{r}/{name}.jsonl"):
            if line.startswith("{"):
                x = json.loads(line)
                out[x["cfg"]] = x
    except FileNotFoundError:
        pass
    return out
for t in ("desc", "ptr"):
    tri = load(f"{t}-triton")
    runs = {v: [load(f"{t}-{v}-{k}") for k in (1, 2)] for v in ("before", "after")}
    best = lambda v, c: min((x[c]["us"] for x in runs[v] if c in x and "us" in x[c]), default=None)
    logs = {v: [] for v in runs}
    print(f"== {t}: %-22s %9s %9s %9s  after/before  err(after)" % ("config", "triton", "before", "after"))
    for c in sorted(set(tri) | set(runs["after"][0])):
        row = [tri.get(c, {}).get("us")] + [best(v, c) for v in runs]
        errs = [x[c].get("err", x[c].get("error")) for x in runs["after"] if c in x]
        ab = "%.3f" % (row[2] / row[1]) if row[1] and row[2] else "-"
        print("%-28s %9s %9s %9s  %s  %s" % ((c,) + tuple("%.1f" % u if u else "-" for u in row) + (ab, errs)))
        if all(row):
            for v, u in zip(runs, row[1:]):
                logs[v].append(math.log(u / row[0]))
    for v in runs:
        if logs[v]:
            print("%s geomean Kiln %s / Triton: %.3f over %d" % (t, v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
PY
tar czf $OUT/results.tgz -C $OUT r
