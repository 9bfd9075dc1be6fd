#!/usr/bin/env bash
# Session 51, call 4: wgmma products issued M block by M block (all K steps of a block's 64 rows,
# then the next block's: Triton's order) instead of K step by K step, and whether a product then
# stays in flight into the next iteration even where session 50's register estimate kept it
# synchronous (ptxas, locally: attention HEAD_DIM 128, 128 x 128 blocks, 4 warps spills 1072 B
# in K-step order and synchronous, 1048 B in M-block order, 96 B in M-block order in flight).
# Variants: A = c85b9eb (this session's first change), B = M-block order, C = B with every chain
# in flight (KILN_FORCE_INFLIGHT=1, an experiment switch). Triton 3.6 in the same call. Only
# configs whose warp group holds two M blocks (BLOCK_M 128 on 4 warps) change.
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
A=.ext/tools/attn_epilogue_ab.py
F="D64 BM128 BN32 s2 w4,D64 BM128 BN32 s3 w4,D64 BM128 BN32 s4 w4,D64 BM128 BN64 s2 w4,D64 BM128 BN64 s3 w4,D64 BM128 BN64 s4 w4,D64 BM128 BN128 s2 w4,D64 BM128 BN128 s3 w4,D64 BM128 BN128 s4 w4,D128 BM128 BN32 s2 w4,D128 BM128 BN32 s3 w4,D128 BM128 BN32 s4 w4,D128 BM128 BN64 s2 w4,D128 BM128 BN64 s3 w4,D128 BM128 BN64 s4 w4,D128 BM128 BN128 s2 w4,D128 BM128 BN128 s3 w4,D128 BM128 BN128 s4 w4"
TRITON_CACHE_DIR=/tmp/tc-a timeout 100 python3 $A "$F" > $r/attn-triton.jsonl 2>&1; echo "attn triton rc=$?"
for round in 1 2; do
  KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kc-A timeout 60 python3 -m kiln.run $A "$F" > $r/attn-A-$round.jsonl 2>&1; echo "attn A rc=$?"
  KILN_CACHE_DIR=/tmp/kc-B timeout 60 python3 -m kiln.run $A "$F" > $r/attn-B-$round.jsonl 2>&1; echo "attn B rc=$?"
  KILN_FORCE_INFLIGHT=1 KILN_CACHE_DIR=/tmp/kc-C timeout 60 python3 -m kiln.run $A "$F" > $r/attn-C-$round.jsonl 2>&1; echo "attn C rc=$?"
done
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
L=.ext/tools/liger_configs.py
G="BM128 BN128 BK64"
TRITON_CACHE_DIR=/tmp/tc-l timeout 110 python3 $L fwd,dI,dGU "$G" > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger triton rc=$?"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kl-A timeout 80 python3 -m kiln.run $L fwd,dI,dGU "$G" > $r/lg-A.jsonl 2> $r/lg-A.err; echo "liger A rc=$?"
KILN_CACHE_DIR=/tmp/kl-B timeout 80 python3 -m kiln.run $L fwd,dI,dGU "$G" > $r/lg-B.jsonl 2> $r/lg-B.err; echo "liger B rc=$?"
KILN_FORCE_INFLIGHT=1 KILN_CACHE_DIR=/tmp/kl-C timeout 80 python3 -m kiln.run $L fwd,dI,dGU "$G" > $r/lg-C.jsonl 2> $r/lg-C.err; echo "liger C rc=$?"
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys, math
r = sys.argv[1]
def load(name, key=lambda x: x["cfg"]):
    out = {}
    try:
        for line in open(f"{r}/{name}.jsonl"):
            if line.startswith("{"):
                x = json.loads(line)
                out[key(x)] = x
    except FileNotFoundError:
        pass
    return out
def table(title, tri, runs, key):
    print(f"== {title}: %-28s %9s" % ("config", "triton") + "".join(" %9s" % v for v in runs) + "   B/A   C/A")
    logs = {v: [] for v in runs}
    for c in tri:
        t = tri[c].get("us")
        row = [min((x[c]["us"] for x in runs[v] if c in x and x[c].get("us")), default=None) for v in runs]
        rat = ["%.3f" % (row[i] / row[0]) if row[0] and row[i] else "-" for i in (1, 2)]
        sums = {v: [x[c].get("sums") for x in runs[v] if c in x] for v in runs}
        print("%-36s %9s" % (c, "%.1f" % t if t else "-") + "".join(" %9s" % ("%.1f" % u if u else "-") for u in row) + "  " + "  ".join(rat))
        if t and all(row):
            for v, u in zip(runs, row):
                logs[v].append(math.log(u / t))
    for v in runs:
        if logs[v]:
            print("%s geomean Kiln %s / Triton: %.3f over %d" % (title, v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
table("attention", load("attn-triton"), {v: [load(f"attn-{v}-{k}") for k in (1, 2)] for v in "ABC"}, None)
key = lambda x: x["kernel"] + " " + x["cfg"]
tri = load("lg-triton", key)
runs = {v: [load(f"lg-{v}", key)] for v in "ABC"}
table("liger", tri, runs, key)
bad = [c for c in tri for v in "ABC" for x in runs[v] if c in x and tri[c].get("sums") and x[c].get("sums") != tri[c].get("sums")]
print("liger sums differing from Triton's:", sorted(set(bad)) or "none")
PY
tar czf $OUT/results.tgz -C $OUT r
