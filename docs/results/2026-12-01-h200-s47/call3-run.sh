#!/usr/bin/env bash
# Session 47, call 3 (28bbf19): why Liger's _swiglu_kernel_backward_dI is 1.16x Triton's time
# after tuning: every config of its autotune list (and of the forward's), timed under Triton and
# under Kiln (do_bench 25 + 100 ms, bench shape B=4, S=2048, dim 4096, hidden 14336, bf16),
# script .ext/tools/liger_dI_configs.py.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 200 python3 .ext/tools/liger_dI_configs.py dI,fwd > $r/triton.jsonl 2> $r/triton.err; echo "triton rc=$?"
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc timeout 200 python3 -m kiln.run .ext/tools/liger_dI_configs.py dI,fwd > $r/kiln.jsonl 2> $r/kiln.err; echo "kiln rc=$?"
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys
r = sys.argv[1]
def load(p):
    out = {}
    for line in open(p):
        if line.startswith("{"):
            x = json.loads(line); out[(x["kernel"], x["cfg"])] = x["us"]
    return out
t, k = load(r + "/triton.jsonl"), load(r + "/kiln.jsonl")
for key in t:
    a, b = t[key], k.get(key)
    print("%-4s %-28s triton %9s kiln %9s ratio %s" % (key[0], key[1], "%.1f" % a if a else "-", "%.1f" % b if b else "-", "%.3f" % (b / a) if a and b else "-"))
for name in ("dI", "fwd"):
    bt = min((v, c) for (n, c), v in t.items() if n == name and v)
    bk = min((v, c) for (n, c), v in k.items() if n == name and v)
    print("best %s: triton %.1f (%s) kiln %.1f (%s) ratio %.3f" % (name, bt[0], bt[1], bk[0], bk[1], bk[0] / bt[0]))
PY
tail -3 $r/kiln.err $r/triton.err | cut -c1-200
tar czf $OUT/results.tgz -C $OUT r
