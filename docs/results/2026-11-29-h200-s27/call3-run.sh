#!/usr/bin/env bash
# Session 27, call 3: tensor-core kernels JIT-compiled as whole programs (KILN_JIT=auto,
# the new default) against the driver's linker (KILN_JIT=link), both with 32-bit shared
# pointers: mamba's SSD kernels per config (Triton in the same call), the corpus's dot
# instances, the dot family against Triton.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
export TRITON_CACHE_DIR=/tmp/tc-mk
echo "== triton"; timeout 100 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-triton.json > $OUT/mk-triton.txt 2>&1; echo rc=$?
for mode in link auto; do
  echo "== kiln $mode"; KILN_JIT=$mode KILN_CACHE_DIR=/tmp/kc-$mode timeout 60 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-kiln-$mode.json > $OUT/mk-kiln-$mode.txt 2>&1; echo rc=$?
done
python3 - $OUT <<'PY'
import json, sys, math
o = sys.argv[1]
t = json.load(open(o + "/mk-triton.json"))["rows"]
ks = {m: json.load(open(o + "/mk-kiln-%s.json" % m))["rows"] for m in ("link", "auto")}
print("%-12s %-44s %7s %7s %7s" % ("op", "config", "triton", "link", "auto"))
geo = {m: {} for m in ks}
for i, a in enumerate(t):
    f = lambda r: "%.1f" % r["kernel_us"] if r.get("kernel_us") else "-"
    print("%-12s %-44s %7s %7s %7s" % (a["op"], a["config"], f(a), *(f(ks[m][i]) for m in ("link", "auto"))))
    for m in ks:
        if a.get("kernel_us") and ks[m][i].get("kernel_us"):
            geo[m].setdefault(a["op"], []).append(math.log(ks[m][i]["kernel_us"] / a["kernel_us"]))
for m in geo:
    print(m, {op: round(math.exp(sum(v) / len(v)), 3) for op, v in geo[m].items()})
PY
for mode in link auto; do
  for f in matmul attention bmm; do
    KILN_JIT=$mode KILN_CACHE_DIR=/tmp/kcc-$mode timeout 100 python3 bench/corpus_run.py --filter $f --json $OUT/corpus-$mode-$f.json > $OUT/corpus-$mode-$f.txt 2>&1
  done
  echo "== corpus dots $mode"; grep -h "ratio" $OUT/corpus-$mode-*.txt | head -40
done
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $OUT/compare-dot.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-dot.txt | tail -8
cd $OUT && tar czf corpus-dots.tgz corpus-*.json corpus-*.txt && rm -f corpus-*.json corpus-*.txt
