#!/usr/bin/env bash
# Session 48, call 1: warp groups splitting N (#tile.mma version 3: 8 or 16 warps on a
# 64-row wgmma accumulator, Triton's [4, 2] / [4, 4]; before, mma.sync). compare_kernels
# --only dot against Triton (new split-N cases); tutorial 03's kernel at fixed 64-row
# 8-warp configs (fp16, fp8) against Triton; Liger's fused-MLP forward and dI, every
# autotune config timed under both (.ext/tools/liger_configs.py); Liger's test_mlp under Kiln.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 200 python3 test/gpu/compare_kernels.py --only dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -14; echo "PASS $(grep -c ^PASS $r/compare.txt)"
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc1 TRITON_CACHE_DIR=/tmp/tc1 timeout 120 python3 bench/matmul_bench.py --sizes 4096 \
  --configs "64,128,64,8,3,8;64,256,64,8,3,8;64,128,32,8,4,8;64,256,32,8,4,8;128,256,64,8,3,8;64,128,64,8,3,4" \
  --json $r/mm-fp16.json > $r/mm-fp16.txt 2>&1; echo "mm fp16 rc=$?"
tail -5 $r/mm-fp16.txt
KILN_CACHE_DIR=/tmp/kc1 TRITON_CACHE_DIR=/tmp/tc1 timeout 90 python3 bench/matmul_bench.py --sizes 4096 --dtype fp8e4nv \
  --configs "64,256,128,8,3,8;64,128,128,8,3,8;128,256,128,8,3,8" --json $r/mm-fp8.json > $r/mm-fp8.txt 2>&1; echo "mm fp8 rc=$?"
tail -5 $r/mm-fp8.txt
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
TRITON_CACHE_DIR=/tmp/tc2 timeout 150 python3 .ext/tools/liger_configs.py fwd,dI > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger cfg triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 150 python3 -m kiln.run .ext/tools/liger_configs.py fwd,dI > $r/lg-kiln.jsonl 2> $r/lg-kiln.err; echo "liger cfg kiln rc=$?"
python3 - $r <<'PY'
import json, sys
r = sys.argv[1]
def load(p):
    out = {}
    for line in open(p):
        if line.startswith("{"):
            x = json.loads(line); out[(x["kernel"], x["cfg"])] = x["us"]
    return out
t, k = load(r + "/lg-triton.jsonl"), load(r + "/lg-kiln.jsonl")
for key in t:
    a, b = t[key], k.get(key)
    print("%-4s %-28s triton %9s kiln %9s ratio %s" % (key[0], key[1], "%.1f" % a if a else "-", "%.1f" % b if b else "-", "%.3f" % (b / a) if a and b else "-"))
for name in ("dI", "fwd"):
    try:
        bt = min((v, c) for (n, c), v in t.items() if n == name and v)
        bk = min((v, c) for (n, c), v in k.items() if n == name and v)
        print("best %s: triton %.1f (%s) kiln %.1f (%s) ratio %.3f" % (name, bt[0], bt[1], bk[0], bk[1], bk[0] / bt[0]))
    except ValueError:
        pass
PY
tail -2 $r/lg-kiln.err $r/lg-triton.err | cut -c1-200
date -u >> $r/device.txt
mkdir -p $r/liger
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 100 \
  --keep $r/liger/keep --files test/transformers/test_mlp.py -- -k llamamlp > $r/liger-tests.txt 2>&1; echo "liger tests rc=$?"
grep -E "passed|FAIL" $r/liger-tests.txt | cut -c1-220 | head -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
