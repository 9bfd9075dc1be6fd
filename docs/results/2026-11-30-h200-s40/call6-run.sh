#!/usr/bin/env bash
# Session 40, call 6: the final code. Register caps at any step up (timed at launch), the first
# step up when the best cap spills, butterfly cross-warp reductions of 8+ partials. RuntimeGpuTests,
# the corpus against Triton (KILN_LOG=cache: plans and choices), Liger's operators under both
# compilers, compare_kernels layernorm_fast, the tutorial LayerNorm (ln-bench --quick vs Triton).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 140 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $r/gtest.txt 2>&1; echo "gtest rc=$?"; tail -2 $r/gtest.txt
date -u >> $r/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcc timeout 180 python3 bench/corpus_run.py --max-seconds 165 --json $r/corpus.json > $r/corpus.txt 2> $r/corpus.err; echo "corpus rc=$?"
tail -3 $r/corpus.txt; gzip -f $r/corpus.json
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/liger_bench.py --only layer_norm,cross_entropy,swiglu,sparsemax,rms_norm,softmax --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 60 python3 -m kiln.run bench/liger_bench.py --only layer_norm,cross_entropy,swiglu,sparsemax,rms_norm,softmax --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt
grep -E "^    [_a-z]" $r/compare.txt | grep -v Memcpy
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc2 timeout 45 python3 test/gpu/compare_kernels.py --only layernorm_fast > $r/compare-lnfast.txt 2>&1; echo "lnfast rc=$?"; tail -2 $r/compare-lnfast.txt
OUT=$r/ln timeout 90 scripts/device-run.sh --quick --skip-tests --skip-aot > $r/ln-run.txt 2>&1; echo "ln rc=$?"; tail -15 $r/ln/compare.md 2>/dev/null
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
