#!/usr/bin/env bash
# Session 42, call 2: loop-deletion in the IR pipeline (ee90fd7) and reductions in Triton's order
# (f4ed7b3: a thread's registers in register order, lanes from the highest bit; 154 corpus
# kernels' PTX changed). The corpus against Triton, the tutorial LayerNorm (ln-bench --quick vs
# Triton), lightllm under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kcc timeout 190 python3 bench/corpus_run.py --max-seconds 175 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -3 $r/corpus.txt; gzip -f $r/corpus.json
date -u >> $r/device.txt
OUT=$r/ln timeout 110 scripts/device-run.sh --quick --skip-tests --skip-aot > $r/ln-run.txt 2>&1; echo "ln rc=$?"; tail -18 $r/ln/compare.md 2>/dev/null
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/ll-compare.txt | grep -v Memcpy | cut -c1-160
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
