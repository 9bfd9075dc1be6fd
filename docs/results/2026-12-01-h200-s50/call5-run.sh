#!/usr/bin/env bash
# Session 50, call 5: wgmma products left in flight only where their accumulator fits beside
# what the next iteration computes before waiting for it (InFlightProducts.cpp). compare_kernels
# dot / tma against Triton; the attention forward of calls 1 / 4 and Liger's fused-MLP configs
# (BM128 BN128 BK64; the forward's 4-warp ones now synchronous), Kiln at session 49's code
# (before) and now (after), two rounds each; outputs checked (SDPA error, sums against before).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot,tma > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -6
gzip -9 $r/compare.txt
run() { # variant, output, command...
  local v=$1 out=$2; shift 2
  case $v in
    before) KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcb "$@" >> $out 2>/dev/null ;;
    after) KILN_CACHE_DIR=/tmp/kca "$@" >> $out 2>/dev/null ;;
  esac
  echo "$v rc=$?"
}
for round in 1 2; do
  for v in before after; do
    run $v $r/attn-$v.jsonl timeout 60 python3 -m kiln.run .ext/tools/attn_epilogue_ab.py "BM128"
  done
done
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
for round in 1 2; do
  for v in before after; do
    run $v $r/lg-$v.jsonl timeout 80 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dI,dGU "BM128 BN128 BK64"
  done
done
python3 - $r <<'PY'
import json, sys, math, collections
r = sys.argv[1]
for kind, key in (("attn", lambda x: x["cfg"]), ("lg", lambda x: x["kernel"] + " " + x["cfg"])):
    best, extra = {}, {}
    for v in ("before", "after"):
        d = collections.defaultdict(list)
        for line in open(f"{r}/{kind}-{v}.jsonl"):
            if line.startswith("{"):
                x = json.loads(line)
                if x.get("us"):
                    d[key(x)].append(x["us"])
                    extra[(v, key(x))] = x.get("err", x.get("sums"))
        best[v] = {k: min(u) for k, u in d.items()}
    logs = []
    for k in best["before"]:
        row = [best[v].get(k) for v in ("before", "after")]
        print("%-34s %s  %s %s" % (k, " ".join("%9.1f" % u if u else "        -" for u in row),
                                  extra.get(("before", k)), extra.get(("after", k))))
        if all(row):
            logs.append(math.log(row[1] / row[0]))
    print("%s geomean after / before %.3f over %d" % (kind, math.exp(sum(logs) / len(logs)), len(logs)))
PY
tar czf $OUT/results.tgz -C $OUT r
