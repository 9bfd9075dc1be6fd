#!/usr/bin/env bash
# Session 50, call 1: squeezed descriptor stores (a cast of a reshape up, Liger's epilogues),
# TMA stores of rank 3 to 5; TMA stores after the last loop behind KILN_EXP_EPILOGUE_TMA=1 for
# this A/B. compare_kernels desc / tma / ragged / dot against Triton with the epilogue stores by
# TMA, ragged / batched with the default; an attention forward whose O leaves through a host
# descriptor after its loop (.ext/tools/attn_epilogue_ab.py), every config: Triton, Kiln at
# session 49's code (before), Kiln now, Kiln now with the epilogue stores by TMA.
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
KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kc0 timeout 250 python3 test/gpu/compare_kernels.py --only desc,tma,ragged,dot > $r/compare-env.txt 2>&1; echo "compare env rc=$?"
grep -E "^FAIL|passed, " $r/compare-env.txt | cut -c1-220 | tail -8
gzip -9 $r/compare-env.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 60 python3 test/gpu/compare_kernels.py --only ragged > $r/compare-ragged.txt 2>&1; echo "compare ragged rc=$?"
grep -E "^FAIL|passed, " $r/compare-ragged.txt | cut -c1-220 | tail -4
date -u >> $r/device.txt
A=.ext/tools/attn_epilogue_ab.py
TRITON_CACHE_DIR=/tmp/tc2 timeout 100 python3 $A > $r/attn-triton.jsonl 2>&1; echo "attn triton rc=$?"
for round in 1 2; do
  KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcb timeout 60 python3 -m kiln.run $A > $r/attn-before-$round.jsonl 2>&1; echo "attn before rc=$?"
  KILN_CACHE_DIR=/tmp/kca timeout 60 python3 -m kiln.run $A > $r/attn-after-$round.jsonl 2>&1; echo "attn after rc=$?"
  KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kce timeout 60 python3 -m kiln.run $A > $r/attn-env-$round.jsonl 2>&1; echo "attn env rc=$?"
done
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
t = load("attn-triton")
runs = {v: [load(f"attn-{v}-{k}") for k in (1, 2)] for v in ("before", "after", "env")}
best = lambda v, c: min((x[c]["us"] for x in runs[v] if c in x and "us" in x[c]), default=None)
logs = {v: [] for v in runs}
print("%-24s %9s %9s %9s %9s  err(env)" % ("config", "triton", "before", "after", "env"))
for c in t:
    row = [t[c].get("us")] + [best(v, c) for v in runs]
    errs = [x[c].get("err") for x in runs["env"] if c in x]
    print("%-24s %9s %9s %9s %9s  %s" % ((c,) + tuple("%.1f" % u if u else "-" for u in row) + (errs,)))
    if all(row):
        for v, u in zip(runs, row[1:]):
            logs[v].append(math.log(u / row[0]))
for v in runs:
    if logs[v]:
        print("geomean Kiln %s / Triton: %.3f over %d" % (v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
PY
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
