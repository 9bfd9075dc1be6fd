#!/usr/bin/env bash
# Session 51, call 6, the final code (d7b5d1b): compare_kernels' tma / desc / ragged families
# against Triton (their wgmma dots now issued block by block and in flight), and every config of
# the host-descriptor attention forward (42) under Triton and Kiln.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 220 python3 test/gpu/compare_kernels.py --only tma,desc,ragged > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
gzip -9 $r/compare.txt
date -u >> $r/device.txt
A=.ext/tools/attn_epilogue_ab.py
TRITON_CACHE_DIR=/tmp/tc-a timeout 150 python3 $A > $r/attn-triton.jsonl 2>&1; echo "attn triton rc=$?"
KILN_CACHE_DIR=/tmp/kc-a timeout 90 python3 -m kiln.run $A > $r/attn-kiln.jsonl 2>&1; echo "attn kiln rc=$?"
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys, math
r = sys.argv[1]
def load(name):
    out = {}
    for line in open(f"{r}/{name}.jsonl"):
        if line.startswith("{"):
            x = json.loads(line)
            out[x["cfg"]] = x
    return out
t, k = load("attn-triton"), load("attn-kiln")
logs = {64: [], 128: []}
best = {}
for c in t:
    tu, ku = t[c].get("us"), k.get(c, {}).get("us")
    print("%-24s %9s %9s %s  err %s" % (c, tu, ku, "%.3f" % (ku / tu) if tu and ku else "-", k.get(c, {}).get("err", k.get(c, {}).get("error"))))
    d = int(c.split()[0][1:])
    if tu and ku:
        logs[d].append(math.log(ku / tu))
    for who, u in (("triton", tu), ("kiln", ku)):
        if u and u < best.get((d, who), (1e18,))[0]:
            best[(d, who)] = (u, c)
for d in logs:
    print("HEAD_DIM %d: geomean Kiln / Triton %.3f over %d; best Triton %s, best Kiln %s, ratio %.3f" % (
        d, math.exp(sum(logs[d]) / len(logs[d])), len(logs[d]), best[(d, "triton")], best[(d, "kiln")],
        best[(d, "kiln")][0] / best[(d, "triton")][0]))
PY
tar czf $OUT/results.tgz -C $OUT r
