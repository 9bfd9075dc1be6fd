#!/usr/bin/env bash
# Session 45, call 1: TMA copies in the loop that reads their slots without the elected thread's
# fence.proxy.async when only TMA and wgmma (descriptor reads, a slot's tile.trans view
# included) touch the buffer. A/B of two libkiln builds (old: main 129ce43, new: the change),
# Kiln only, alternating over two rounds, each in its own process and cache: tutorial 09's TMA
# kernels config by config (fp16, fp8 at 8192 x 8192 x 4096), tutorial 06's forward config by
# config (host descriptors; head dims 64 / 128, 4096 tokens, not causal). Triton once on each
# (autotuned) for the ratios; compare_kernels tma / desc against Triton with the new build.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/python
r=$OUT/r; mkdir -p $r /tmp/ab
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
tar xJf .ext/ab/ab.tar.xz -C /tmp/ab
T09=.ext/triton-tutorials/09-persistent-matmul.py
K09="tma_persistent,descriptor_persistent"
T06="--modes fwd --head-dims 64,128 --n-ctx 4096 --causal no"
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/tutorial09_bench.py $T09 --sizes 8192x8192x4096 --kernels $K09 > $r/t09-triton.txt 2>&1; echo "t09 triton rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/tutorial06_bench.py $T06 --json $r/t06-triton.json > $r/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
date -u >> $r/device.txt
for round in 1 2; do
  for v in old new; do
    export KILN_LIBRARY=/tmp/ab/$v/libkiln.so KILN_CACHE_DIR=/tmp/kc-$v
    timeout 100 python3 -m kiln.run bench/tutorial09_bench.py $T09 --sizes 8192x8192x4096 --kernels $K09 --per-config > $r/t09-$v-$round.txt 2>&1; echo "t09 $v $round rc=$?"
    timeout 100 python3 -m kiln.run bench/tutorial06_bench.py $T06 --per-config --json $r/t06-$v-$round.json > $r/t06-$v-$round.txt 2>&1; echo "t06 $v $round rc=$?"
  done
done
unset KILN_LIBRARY KILN_CACHE_DIR
date -u >> $r/device.txt
python3 - $r > $r/ab.txt <<'PY'
import json, sys, statistics, glob
r = sys.argv[1]
def rows09(p):
    out = {}
    for line in open(p):
        if line.startswith("{"):
            x = json.loads(line)
            k = (x["kernel"], x["dtype"], json.dumps(x.get("config"), sort_keys=True))
            out[k] = (x.get("ms"), x.get("ok"))
    return out
def rows06(p):
    out = {}
    for x in json.load(open(p)):
        k = ("attn_fwd", "hd%d" % x["head_dim"], json.dumps(x.get("config"), sort_keys=True))
        out[k] = (1.0 / x["tflops"] if x.get("tflops") else None, True)
    return out
runs = {v: [rows09(f"{r}/t09-{v}-{i}.txt") | rows06(f"{r}/t06-{v}-{i}.json") for i in (1, 2)] for v in ("old", "new")}
ratios = []
for k in sorted(runs["new"][0]):
    med = {v: statistics.median([runs[v][i][k][0] for i in (0, 1) if runs[v][i].get(k, (None,))[0]] or [0]) for v in runs}
    ok = all(runs[v][i].get(k, (0, False))[1] for v in runs for i in (0, 1))
    q = med["new"] / med["old"] if med["old"] else 0
    if q: ratios.append(q)
    print(f"{k[0]:22s} {k[1]:5s} {k[2][:90]:90s} old {med['old']:.4f} new {med['new']:.4f} new/old {q:.3f} ok {ok}")
g = statistics.geometric_mean(ratios) if ratios else 0
print(f"geomean new/old over {len(ratios)}: {g:.4f}; min {min(ratios):.3f} max {max(ratios):.3f}")
PY
tail -3 $r/ab.txt; grep -c "ok False" $r/ab.txt
grep -h '"ms"' $r/t09-triton.txt | cut -c1-200; grep -h tflops $r/t06-triton.txt | cut -c1-200
date -u >> $r/device.txt
KILN_LIBRARY=/tmp/ab/new/libkiln.so KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
