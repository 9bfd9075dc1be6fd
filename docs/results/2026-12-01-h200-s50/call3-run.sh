#!/usr/bin/env bash
# Session 50, call 3 (the use-after-free of call 1 fixed): compare_kernels desc / tma / ragged /
# dot against Triton with the epilogue stores by TMA (KILN_EXP_EPILOGUE_TMA=1); Liger's fused
# MLP kernels (BM128 BN128 BK64 configs, dGU) under Triton, Kiln at session 49's code (before),
# Kiln now (squeezed epilogue stores), Kiln now with the epilogue stores by TMA; outputs
# poisoned with NaN, their sums compared across backends.
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
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
F="BM128 BN128 BK64"
TRITON_CACHE_DIR=/tmp/tc2 timeout 100 python3 .ext/tools/liger_configs.py fwd,dI,dGU "$F" > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger triton rc=$?"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcb timeout 80 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dI,dGU "$F" > $r/lg-before.jsonl 2> $r/lg-before.err; echo "liger before rc=$?"
KILN_CACHE_DIR=/tmp/kca timeout 80 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dI,dGU "$F" > $r/lg-after.jsonl 2> $r/lg-after.err; echo "liger after rc=$?"
KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kce timeout 80 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dI,dGU "$F" > $r/lg-env.jsonl 2> $r/lg-env.err; echo "liger env rc=$?"
python3 - $r <<'PY'
import json, sys, math
r = sys.argv[1]
def load(v):
    out = {}
    for line in open(f"{r}/lg-{v}.jsonl"):
        if line.startswith("{"):
            x = json.loads(line); out[(x["kernel"], x["cfg"])] = x
    return out
V = ("triton", "before", "after", "env")
d = {v: load(v) for v in V}
logs = {v: [] for v in V[1:]}
print("%-4s %-26s %9s %9s %9s %9s  sums" % (("", "config") + V))
for key in d["triton"]:
    us = [d[v].get(key, {}).get("us") for v in V]
    ref = d["triton"][key].get("sums") or []
    rel = []
    for v in V[1:]:
        s = d[v].get(key, {}).get("sums") or []
        rel.append(max((abs(a - b) / max(abs(b), 1.0) for a, b in zip(s, ref)), default=float("nan"))
                   if len(s) == len(ref) else float("nan"))
    print("%-4s %-26s %s  %s %s" % (key[0], key[1], " ".join("%9.1f" % u if u else "        -" for u in us), ref,
                                    " ".join("%.1e" % x for x in rel)))
    if all(us):
        for v, u in zip(V[1:], us[1:]):
            logs[v].append(math.log(u / us[0]))
for v in V[1:]:
    print("geomean %s / triton %.3f over %d" % (v, math.exp(sum(logs[v]) / len(logs[v])), len(logs[v])))
PY
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
