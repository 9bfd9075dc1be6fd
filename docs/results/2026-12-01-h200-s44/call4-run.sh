#!/usr/bin/env bash
# Session 44, call 4: cp.async waits without the proxy fence (only waits after tile.local_store
# keep it, as Triton fences only register-to-shared copies). A/B of two libkiln builds (old:
# 41e3af8, new: the change), alternating over two rounds, Kiln only, each in its own process
# and cache: the corpus's tensor-core kernels (every shape; their outputs checked each run) and
# the vLLM ops whose PTX changed; Triton once on each for the ratios. compare_kernels dot / tma
# against Triton with the new build.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD/python
r=$OUT/r; mkdir -p $r /tmp/ab
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
tar xJf .ext/ab/ab.tar.xz -C /tmp/ab
F=matmul_kernel,attention_kernel,block_scaled,bmm_bias,moe_gemm
OPS=block_int8_matmul,decode_attention_mla,fused_moe,fused_moe_decode,prefix_prefill,scaled_mm_int8,unified_attention,unified_attention_decode,vit_attention
B=bench/vllm_bench.py
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/corpus_run.py --triton-only --filter $F --json $r/corpus-triton.json > $r/corpus-triton.txt 2>&1; echo "corpus triton rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 $B --only $OPS --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
date -u >> $r/device.txt
for round in 1 2; do
  for v in old new; do
    KILN_LIBRARY=/tmp/ab/$v/libkiln.so KILN_CACHE_DIR=/tmp/kc-$v timeout 100 python3 bench/corpus_run.py --kiln-only --filter $F --json $r/corpus-$v-$round.json > $r/corpus-$v-$round.txt 2>&1; echo "corpus $v $round rc=$? $(grep -E 'instances correct' $r/corpus-$v-$round.txt)"
    KILN_LIBRARY=/tmp/ab/$v/libkiln.so KILN_CACHE_DIR=/tmp/kc-$v timeout 100 python3 -m kiln.run $B --only $OPS --out $r/vllm-$v-$round.json > $r/vllm-$v-$round.log 2>&1 || echo "vllm $v $round failed"
    python3 $B --compare $r/vllm-triton.json $r/vllm-$v-$round.json 2>&1 | grep -E "^    |DIFF|differ" | awk -v v=$v -v r=$round '{printf "%s r%s %s %s %s %s\n", v, r, $1, $3, $4, $5}'
  done
done 2>&1 | tee $r/ab-vllm.txt
date -u >> $r/device.txt
python3 - $r > $r/ab-corpus.txt <<'PY'
import json, sys, statistics, collections
r = sys.argv[1]
def load(p, impl):
    out = {}
    for x in json.load(open(p))["results"]:
        e = x.get(impl) or {}
        out[x["id"]] = (e.get("us"), e.get("correct"))
    return out
tri = load(f"{r}/corpus-triton.json", "triton")
runs = {v: [load(f"{r}/corpus-{v}-{i}.json", "kiln") for i in (1, 2)] for v in ("old", "new")}
for k in tri:
    med = {v: statistics.median([runs[v][i][k][0] for i in (0, 1) if k in runs[v][i] and runs[v][i][k][0]] or [0]) for v in runs}
    ok = all(runs[v][i].get(k, (0, None))[1] for v in runs for i in (0, 1))
    t = tri[k][0] or 0
    print(f"{k:55s} triton {t:9.2f} old {med['old']:9.2f} new {med['new']:9.2f} new/old {med['new']/med['old'] if med['old'] else 0:6.3f} new/triton {med['new']/t if t else 0:6.3f} correct {ok}")
PY
cat $r/ab-corpus.txt | cut -c1-170
date -u >> $r/device.txt
KILN_LIBRARY=/tmp/ab/new/libkiln.so KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot,tma > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
