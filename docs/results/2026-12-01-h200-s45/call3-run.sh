#!/usr/bin/env bash
# Session 45, call 3: the final tile-rebase-copy-pointers (each rebased pointer placed before its
# first use, copy pointers only; call 2 measured a first version that put them at the top of the
# loop and rebased load pointers too). A/B of two libkiln builds (old: main c07cd24, new: the
# pass), alternating over three rounds, Kiln only, each in its own process and cache: the
# corpus's tensor-core kernels (every shape; outputs checked each run) and the vLLM kernels
# whose PTX changed; Triton once on each for the ratios. SASS loop statistics of the block-scaled
# matmuls, fused MoE and scaled_mm under both builds. compare_kernels dot against Triton with
# the new build.
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
OPS=block_int8_matmul,fused_moe,fused_moe_decode,scaled_mm_int8
B=bench/vllm_bench.py
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/corpus_run.py --triton-only --filter $F --json $r/corpus-triton.json > $r/corpus-triton.txt 2>&1; echo "corpus triton rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 $B --only $OPS --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
date -u >> $r/device.txt
for round in 1 2 3; do
  for v in old new; do
    KILN_LIBRARY=/tmp/ab/$v/libkiln.so KILN_CACHE_DIR=/tmp/kc-$v timeout 100 python3 bench/corpus_run.py --kiln-only --filter $F --json $r/corpus-$v-$round.json > $r/corpus-$v-$round.txt 2>&1; echo "corpus $v $round rc=$? $(grep -E 'instances correct' $r/corpus-$v-$round.txt)"
    KILN_LIBRARY=/tmp/ab/$v/libkiln.so KILN_CACHE_DIR=/tmp/kc-$v timeout 100 python3 -m kiln.run $B --only $OPS --out $r/vllm-$v-$round.json > $r/vllm-$v-$round.log 2>&1 || echo "vllm $v $round failed"
    python3 $B --compare $r/vllm-triton.json $r/vllm-$v-$round.json 2>&1 | grep -E "^    |DIFF|differ" | awk -v v=$v -v r=$round '{printf "%s r%s %s %s %s %s\n", v, r, $1, $3, $4, $5}'
  done
done 2>&1 | tee $r/ab-vllm.txt
date -u >> $r/device.txt
python3 - $r > $r/ab-corpus.txt <<'PY'
import json, sys, statistics
r = sys.argv[1]
def load(p, impl):
    out = {}
    for x in json.load(open(p))["results"]:
        e = x.get(impl) or {}
        out[x["id"]] = (e.get("us"), e.get("correct"))
    return out
tri = load(f"{r}/corpus-triton.json", "triton")
runs = {v: [load(f"{r}/corpus-{v}-{i}.json", "kiln") for i in (1, 2, 3)] for v in ("old", "new")}
for k in tri:
    med = {v: statistics.median([runs[v][i][k][0] for i in (0, 1, 2) if k in runs[v][i] and runs[v][i][k][0]] or [0]) for v in runs}
    ok = all(runs[v][i].get(k, (0, None))[1] for v in runs for i in (0, 1, 2))
    t = tri[k][0] or 0
    print(f"{k:55s} triton {t:9.2f} old {med['old']:9.2f} new {med['new']:9.2f} new/old {med['new']/med['old'] if med['old'] else 0:6.3f} new/triton {med['new']/t if t else 0:6.3f} correct {ok}")
PY
cut -c1-170 $r/ab-corpus.txt | grep -E "block_scaled|moe_gemm|matmul_kernel/large|bmm_bias_kernel/small|matmul_kernel/small"
CUOBJ=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/cuobjdump
for v in old new; do
  : > $r/sass-$v.txt
  for f in $(find /tmp/kc-$v -name "*.cubin"); do
    python3 -c "import sys; d=open(sys.argv[1],'rb').read(); i=d.find(b'\x7fELF'); open('/tmp/k.cubin','wb').write(d[i:])" "$f"
    $CUOBJ -sass /tmp/k.cubin > /tmp/k.sass 2>&1
    grep -qE "Function : (_w8a8_block_int8_matmul|block_scaled_fp8_matmul_kernel|fused_moe_kernel|scaled_mm_kernel)" /tmp/k.sass && cat /tmp/k.sass >> $r/sass-$v.txt
  done
  python3 .ext/tools/sass_loopstat.py $r/sass-$v.txt > $r/sass-loops-$v.txt 2>&1
  echo "== $v"; cut -c1-220 $r/sass-loops-$v.txt | head -30
done
date -u >> $r/device.txt
KILN_LIBRARY=/tmp/ab/new/libkiln.so KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
gzip -9 $r/sass-old.txt $r/sass-new.txt
tar czf $OUT/results.tgz -C $OUT r/ab-corpus.txt r/ab-vllm.txt r/device.txt r/sass-loops-old.txt r/sass-loops-new.txt r/compare.txt r/corpus-triton.txt r/vllm-triton.log
