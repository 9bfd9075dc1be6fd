#!/usr/bin/env bash
# Session 52, call 2: the change (B's copy pointers rebased as A's: the runtime step hoisted;
# the loop's second barrier after the copies' address arithmetic) on tutorial 03's matmul:
# PTX variants through one harness (base / rebase only / both; at 3 and at 2 programs per SM),
# the tutorial's 8 fp16 configs before (HEAD deef077) and now, correctness of every dot / TMA
# lowering against Triton, the three corpus kernels whose PTX changed.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
T=.ext/tools/mm_probe.py P=.ext/tools/probe_mm
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
F="$P/kiln-bm128-bn128.ptx:65536 $P/kiln-bm128-bn128-rebase.ptx:65536 $P/kiln-bm128-bn128-new.ptx:65536 $P/kiln-bm128-bn128.ptx:100000 $P/kiln-bm128-bn128-new.ptx:100000 $P/kiln-bm128-bn256.ptx:147456 $P/kiln-bm128-bn256-new.ptx:147456"
for round in 1 2; do timeout 150 python3 $T time $F > $r/time-$round.jsonl 2>&1; echo "time rc=$?"; done
python3 - $r <<'PY'
import json, sys
r = sys.argv[1]
rows = {}
for k in (1, 2):
    for l in open(f"{r}/time-{k}.jsonl"):
        if l.startswith("{"):
            x = json.loads(l); rows.setdefault((x["file"], x["smem"]), []).append(min(x["ms"]))
for (f, s), v in rows.items():
    print("%-32s smem %6d  ms %s  TFLOP/s %.1f" % (f, s, " ".join("%.4f" % t for t in v), 2 * 4096**3 / min(v) / 1e9))
PY
date -u >> $r/device.txt
for round in 1 2; do
  KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/km-A timeout 200 python3 bench/matmul_bench.py --sizes 4096 --json $r/mm-A-$round.json > $r/mm-A-$round.txt 2>&1; echo "matmul before rc=$?"
  KILN_CACHE_DIR=/tmp/km-N timeout 200 python3 bench/matmul_bench.py --sizes 4096 --json $r/mm-N-$round.json > $r/mm-N-$round.txt 2>&1; echo "matmul now rc=$?"
done
python3 - $r <<'PY'
import json, sys, glob
r = sys.argv[1]
best = {}
for f in sorted(glob.glob(f"{r}/mm-*.json")):
    tag = f.split("/")[-1][3:4]
    data = json.load(open(f))
    rows = data if isinstance(data, list) else data.get("results", data.get("rows", []))
    for x in rows:
        if not isinstance(x, dict) or not x.get("tflops"): continue
        key = (x["compiler"] if x["compiler"] == "triton" else "kiln-" + tag, tuple(x["config"]))
        best[key] = max(best.get(key, 0), x["tflops"])
cfgs = sorted({c for _, c in best})
print("%-28s %8s %8s %8s  A/T   N/T" % ("config", "triton", "before", "now"))
for c in cfgs:
    t, a, n = best.get(("triton", c)), best.get(("kiln-A", c)), best.get(("kiln-N", c))
    print("%-28s %8.1f %8.1f %8.1f  %.3f %.3f" % (c, t or 0, a or 0, n or 0, (a or 0) / (t or 1), (n or 0) / (t or 1)))
PY
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 300 python3 test/gpu/compare_kernels.py --only dot,tma,desc,ragged > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
date -u >> $r/device.txt
C="matmul_kernel,bmm_bias_kernel,moe_gemm_kernel"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcA timeout 150 python3 bench/corpus_run.py --filter $C --json $r/corpus-A.json > $r/corpus-A.txt 2>&1; echo "corpus before rc=$?"
KILN_CACHE_DIR=/tmp/kcN timeout 150 python3 bench/corpus_run.py --filter $C --json $r/corpus-N.json > $r/corpus-N.txt 2>&1; echo "corpus now rc=$?"
tail -5 $r/corpus-A.txt; tail -5 $r/corpus-N.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
