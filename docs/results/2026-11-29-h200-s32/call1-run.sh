#!/usr/bin/env bash
# Session 32, call 1: what session 31 left untested on a GPU. RuntimeGpuTests; Triton's test_core
# tests of u64 integer arguments (test_value_specialization*), input_precision bf16x3 / bf16x6
# (test_dot) and enable_fp_fusion (the knob) under Kiln; the fused-attention tutorial (06,
# autotuned over num_stages among others: the runtime's variant table now keys num_stages)
# benchmarked under Triton and under Kiln from cold caches (bench/tutorial06_bench.py).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
R=$PWD
timeout 60 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gpu-tests.txt 2>&1; echo "gpu tests rc=$?"; tail -2 $OUT/gpu-tests.txt
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-tc timeout 120 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=short unit/language/test_core.py \
  -k "value_specialization or fp_fusion or (test_dot and (bf16x3 or bf16x6))" > $OUT/triton-core.txt 2>&1; echo "test_core rc=$?")
tail -4 $OUT/triton-core.txt; date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 230 python3 bench/tutorial06_bench.py --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 150 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
date -u >> $OUT/device.txt
python3 - $OUT <<'PY'
import json, sys
d = sys.argv[1]
try:
    t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(d + "/t06-triton.json"))}
except Exception as e:
    t = {}; print("no triton json", e)
k = json.load(open(d + "/t06-kiln.json"))
for r in k:
    key = (r["head_dim"], r["mode"], r["causal"], r["n_ctx"])
    tr = t.get(key, {})
    ratio = r["tflops"] / tr["tflops"] if "tflops" in r and "tflops" in tr else float("nan")
    print(key, "triton", tr.get("tflops", tr.get("error")), "kiln", r.get("tflops", r.get("error")),
          f"kiln/triton {ratio:.2f}", tr.get("config"), r.get("config"))
PY
