#!/usr/bin/env bash
# Session 42, call 3: reductions in Triton's order only for runs of at most 16 registers
# (617c579; call 2's sequential order for every run slowed the tutorial LayerNorm backward at
# bf16 N = 8192 1.24x). The tutorial LayerNorm (ln-bench --quick vs Triton), compare_kernels'
# scan family (reductions: how many now bitwise equal to Triton), lightllm, the corpus.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
OUT=$r/ln timeout 110 scripts/device-run.sh --quick --skip-tests --skip-aot > $r/ln-run.txt 2>&1; echo "ln rc=$?"; tail -16 $r/ln/compare.md 2>/dev/null | head -14
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only scan,layernorm_fast > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -6; echo "bitwise equal: $(grep -c 'bitwise equal' $r/compare.txt)"
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/ll-compare.txt | grep -v Memcpy | cut -c1-160
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 190 python3 bench/corpus_run.py --max-seconds 175 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -2 $r/corpus.txt; gzip -f $r/corpus.json
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
