#!/usr/bin/env bash
# Session 50, call 4: the attention forward of call 1 (O through a host descriptor after the
# loop) every config, Kiln before / after / with the epilogue stores by TMA, two rounds; Liger's
# best configs (fwd and dGU G8 w8 s3, dI G8 w4 s3) again, two rounds of the three.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
A=.ext/tools/attn_epilogue_ab.py
run() { # variant, output, command...
  local v=$1 out=$2; shift 2
  case $v in
    before) KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcb "$@" >> $out 2>/dev/null ;;
    after) KILN_CACHE_DIR=/tmp/kca "$@" >> $out 2>/dev/null ;;
    env) KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kce "$@" >> $out 2>/dev/null ;;
  esac
  echo "$v rc=$?"
}
for round in 1 2; do
  for v in before after env; do
    run $v $r/attn-$v.jsonl timeout 60 python3 -m kiln.run $A
  done
done
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
for round in 1 2; do
  for v in before after env; do
    run $v $r/lg-$v.jsonl timeout 60 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dGU "G8 w8 s3"
    run $v $r/lg-$v.jsonl timeout 60 python3 -m kiln.run .ext/tools/liger_configs.py dI "BM128 BN128 BK64 G8 w4 s3"
  done
done
python3 - $r <<'PY'
import json, sys, math, collections
r = sys.argv[1]
for kind, key in (("attn", lambda x: x["cfg"]), ("lg", lambda x: x["kernel"] + " " + x["cfg"])):
    best = {}
    for v in ("before", "after", "env"):
        d = collections.defaultdict(list)
        for line in open(f"{r}/{kind}-{v}.jsonl"):
            if line.startswith("{"):
                x = json.loads(line)
                if x.get("us"):
                    d[key(x)].append(x["us"])
        best[v] = {k: min(u) for k, u in d.items()}
    logs = {"after": [], "env": []}
    for k in best["before"]:
        row = [best[v].get(k) for v in ("before", "after", "env")]
        print("%-34s %s" % (k, " ".join("%9.1f" % u if u else "        -" for u in row)))
        if all(row):
            logs["after"].append(math.log(row[1] / row[0])); logs["env"].append(math.log(row[2] / row[0]))
    for v in logs:
        if logs[v]:
            print("%s geomean %s / before %.3f over %d" % (kind, v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
PY
tar czf $OUT/results.tgz -C $OUT r
