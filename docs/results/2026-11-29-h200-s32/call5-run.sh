#!/usr/bin/env bash
# Session 32, call 5: the final code. The fused-attention tutorial (06) benchmarked under Triton
# and under Kiln in the same call, each from a cold cache; dot / block-pointer / descriptor
# families against Triton (the pipeline's staging fix); mamba's op tests on Kiln (every 3rd
# parametrization: its kernels use tl.trans and block pointers); compiled[grid](stream=).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
(cd python/tests && KILN_CACHE_DIR=/tmp/ks timeout 60 python3 -m kiln.run gpu_dropin_stream.py > $OUT/stream.txt 2>&1; echo "stream rc=$?"); cat $OUT/stream.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 test/gpu/compare_kernels.py --only dot,dotscaled,blockptr,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -4
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 200 python3 bench/tutorial06_bench.py --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 120 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
tail -6 $OUT/t06-kiln.txt
date -u >> $OUT/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kcm timeout 160 test/gpu/run_mamba.sh $OUT/mamba 3 150 > /dev/null 2>&1; echo "mamba rc=$?"
tail -3 $OUT/mamba/mamba.txt; rm -rf $OUT/mamba/keep
date -u >> $OUT/device.txt
python3 - $OUT <<'PY'
import json, math, sys
d = sys.argv[1]
t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(d + "/t06-triton.json"))}
logs = []
for r in json.load(open(d + "/t06-kiln.json")):
    key = (r["head_dim"], r["mode"], r["causal"], r["n_ctx"])
    a = t.get(key, {})
    if "tflops" in a and "tflops" in r:
        logs.append(math.log(r["tflops"] / a["tflops"]))
        print(key, "triton %.0f kiln %.0f  %.2f" % (a["tflops"], r["tflops"], r["tflops"] / a["tflops"]))
    else:
        print(key, a.get("error"), r.get("error"))
print("geomean %.3f over %d" % (math.exp(sum(logs) / len(logs)), len(logs)))
PY
