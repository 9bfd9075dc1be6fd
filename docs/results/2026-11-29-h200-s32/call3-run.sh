#!/usr/bin/env bash
# Session 32, call 3: the fused-attention tutorial after two changes: a transposed load feeds the
# dot from a transposed slot (tile-sink-trans-into-load: trans(load(p)) -> load of p transposed;
# before, K went slot -> registers -> staged again with two more barriers per iteration), and
# block-pointer / descriptor accesses compute every offset-dependent term as a scalar (bounds
# tests in i32 against clamped scalars). Per config again under Kiln (Triton's numbers: call 2),
# Triton's PTX / TTGIR of the two configs profiled, the autotuned table under Kiln, and Triton's
# value-specialization tests (repr=, OverflowError).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
R=$PWD
B="bench/tutorial06_bench.py --modes fwd --causal no --n-ctx 4096"
KILN_CACHE_DIR=/tmp/kcp timeout 120 python3 -m kiln.run $B --per-config --json $OUT/pc-kiln.json > $OUT/pc-kiln.txt 2>&1; echo "kiln rc=$?"
date -u >> $OUT/device.txt
for spec in "64 64,64,2,4" "128 128,64,2,4"; do
  set -- $spec
  TRITON_CACHE_DIR=/tmp/tc-$1 timeout 60 python3 $B --head-dims $1 --config $2 > /dev/null 2>&1; echo "triton dump $1 rc=$?"
done
(cd /tmp && find tc-64 tc-128 \( -name "*.ttgir" -o -name "*.ptx" \) | tar czf $OUT/triton-ir.tgz -T -)
KILN_CACHE_DIR=/tmp/kc6 timeout 150 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
date -u >> $OUT/device.txt
(cd .ext/triton36/python/test && TRITON_TREE=$PWD/.. PYTHONPATH=$R/test/gpu/tritontests:$PYTHONPATH \
  KILN_CACHE_DIR=/tmp/kc-tc timeout 60 python3 -m kiln.run -m pytest -p triton_internal_testing \
  -p no:cacheprovider -q -rfE --tb=short unit/language/test_core.py \
  -k "value_specialization or test_dot and (bf16x3 or bf16x6)" > $OUT/triton-core.txt 2>&1; echo "test_core rc=$?")
tail -2 $OUT/triton-core.txt
python3 - $OUT <<'PY'
import json, sys
d = sys.argv[1]
for f in ("pc-kiln.json",):
    for r in json.load(open(d + "/" + f)):
        print(r["head_dim"], tuple((r.get("config") or {}).values()), "%.1f" % r.get("tflops", float("nan")), r.get("error", ""))
PY
