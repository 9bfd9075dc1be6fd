#!/usr/bin/env bash
# Session 48, call 4: TMA copies issued by one lane of warp 0 chosen by elect.sync (was thread
# 0: ptxas wrapped each copy in a loop over the lanes, R2UR / ELECT / BRA.U.ANY, ncu of call 3).
# compare_kernels desc / tma / ragged / dot against Triton; Liger's dI and forward (BM 128
# configs) and the MLP op under both; ncu of dI's best config under both; Liger's test_mlp.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 260 python3 test/gpu/compare_kernels.py --only desc,tma,ragged,dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
TRITON_CACHE_DIR=/tmp/tc2 timeout 100 python3 .ext/tools/liger_configs.py dI,fwd BM128 > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger cfg triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 100 python3 -m kiln.run .ext/tools/liger_configs.py dI,fwd BM128 > $r/lg-kiln.jsonl 2> $r/lg-kiln.err; echo "liger cfg kiln rc=$?"
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
    if a and b:
        print("%-4s %-28s triton %9.1f kiln %9.1f ratio %.3f" % (key[0], key[1], a, b, b / a))
for name in ("dI", "fwd"):
    try:
        bt = min((v, c) for (n, c), v in t.items() if n == name and v)
        bk = min((v, c) for (n, c), v in k.items() if n == name and v)
        print("best %s: triton %.1f (%s) kiln %.1f (%s) ratio %.3f" % (name, bt[0], bt[1], bk[0], bk[1], bk[0] / bt[0]))
    except ValueError:
        pass
PY
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc3 timeout 90 python3 bench/liger_bench.py --only mlp --out $r/mlp-triton.json > $r/mlp-triton.txt 2>&1; echo "mlp triton rc=$?"
KILN_CACHE_DIR=/tmp/kc3 timeout 90 python3 -m kiln.run bench/liger_bench.py --only mlp --out $r/mlp-kiln.json > $r/mlp-kiln.txt 2>&1; echo "mlp kiln rc=$?"
python3 bench/liger_bench.py --compare $r/mlp-triton.json $r/mlp-kiln.json > $r/mlp-compare.txt 2>&1
cut -c1-180 $r/mlp-compare.txt | head -14
date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy --section InstructionStats"
CFG="BM128 BN128 BK64 G8 w4 s3"
TRITON_CACHE_DIR=/tmp/tc2 timeout 100 $NCU -k regex:_swiglu_kernel_backward_dI --launch-skip 1 --launch-count 1 python3 .ext/tools/liger_configs.py dI "$CFG" > $r/ncu-triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 100 $NCU -k regex:_swiglu_kernel_backward_dI --launch-skip 1 --launch-count 1 python3 -m kiln.run .ext/tools/liger_configs.py dI "$CFG" > $r/ncu-kiln.txt 2>&1; echo "ncu kiln rc=$?"
for w in triton kiln; do echo "== $w"; grep -E "Duration|Registers Per|Executed Instructions  |Warp Cycles Per Issued|No Eligible|Achieved Occupancy|Dynamic Shared|Compute \(SM\) Throughput|Memory Throughput|Stall" $r/ncu-$w.txt | head -24; done 2>&1 | tee $r/ncu-summary.txt
mkdir -p $r/liger
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 90 \
  --keep $r/liger/keep --files test/transformers/test_mlp.py -- -k llamamlp > $r/liger-tests.txt 2>&1; echo "liger tests rc=$?"
grep -E "passed|FAIL" $r/liger-tests.txt | cut -c1-220 | head -6
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
