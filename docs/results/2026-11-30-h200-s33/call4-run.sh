#!/usr/bin/env bash
# Session 33, call 4: the final code (TMA copies, dot scratch, mbarriers placed after the slots).
# The fused-attention tutorial (06) benchmarked under Triton and under Kiln in this call, each from
# a cold cache, forward and backward (32 shapes, as session 32's call 5); the tma / descriptor /
# dot / block-pointer families against Triton; RuntimeGpuTests; Triton's own
# test_tensor_descriptor.py under Kiln (every 3rd parametrization).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc,dot,blockptr > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -10
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 200 python3 bench/tutorial06_bench.py --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 120 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
tail -5 $OUT/t06-kiln.txt
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
date -u >> $OUT/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kc-tt timeout 150 test/gpu/tritontests/run.sh $OUT/tt 3 140 unit/language/test_tensor_descriptor.py > $OUT/tt.log 2>&1; echo "tests rc=$?"
grep -E "^== |tests:|kernels:" $OUT/tt.log
python3 - $OUT/tt/keep <<'PY' > $OUT/tt-failed.txt
import glob, sys, xml.etree.ElementTree as ET
for f in glob.glob(sys.argv[1] + "/*.xml"):
    for case in ET.parse(f).getroot().iter("testcase"):
        bad = case.find("failure") if case.find("failure") is not None else case.find("error")
        if bad is not None:
            msg = (bad.get("message") or "").splitlines()
            print(case.get("classname"), case.get("name"), "|", msg[0][:200] if msg else "")
PY
wc -l < $OUT/tt-failed.txt; cut -d'|' -f2 $OUT/tt-failed.txt | cut -c1-90 | sort | uniq -c | sort -rn | head -12
rm -rf $OUT/tt/keep
date -u >> $OUT/device.txt
python3 - $OUT <<'PY'
import json, math, sys
d = sys.argv[1]
t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(d + "/t06-triton.json"))}
logs, parts = [], {}
for r in json.load(open(d + "/t06-kiln.json")):
    key = (r["head_dim"], r["mode"], r["causal"], r["n_ctx"])
    a = t.get(key, {})
    if "tflops" in a and "tflops" in r:
        x = r["tflops"] / a["tflops"]
        logs.append(math.log(x)); parts.setdefault((key[0], key[1]), []).append(math.log(x))
        print(key, "triton %.0f kiln %.0f  %.2f" % (a["tflops"], r["tflops"], x), r.get("config"))
    else:
        print(key, a.get("error"), r.get("error"))
for k, v in sorted(parts.items()):
    print("geomean", k, "%.3f" % math.exp(sum(v) / len(v)))
print("geomean %.3f over %d" % (math.exp(sum(logs) / len(logs)), len(logs)))
PY
