#!/usr/bin/env bash
# Session 42, call 8: the session's final code (44d57d2: loop-deletion, reductions in Triton's order
# up to 16 registers, register caps down to 60 %). Every compare_kernels family, RuntimeGpuTests,
# the tutorial LayerNorm (ln-bench --quick vs Triton), Liger's operators under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 260 python3 test/gpu/compare_kernels.py > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error" $r/compare.txt | cut -c1-200 | tail -25; echo "bitwise equal: $(grep -c 'bitwise equal' $r/compare.txt)"
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 120 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $r/gtest.txt 2>&1; echo "gtest rc=$?"; tail -2 $r/gtest.txt
date -u >> $r/device.txt
OUT=$r/ln timeout 110 scripts/device-run.sh --quick --skip-tests --skip-aot > $r/ln-run.txt 2>&1; echo "ln rc=$?"; tail -4 $r/ln/compare.md 2>/dev/null | head -2
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 130 python3 bench/liger_bench.py --out $r/lg-triton.json > $r/lg-triton.log 2>&1; echo "liger triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/liger_bench.py --out $r/lg-kiln.json > $r/lg-kiln.log 2>&1; echo "liger kiln rc=$?"
python3 bench/liger_bench.py --compare $r/lg-triton.json $r/lg-kiln.json > $r/lg-compare.txt 2>&1
grep -E "geomean|DIFF|rror" $r/lg-compare.txt | cut -c1-160; grep -E "^    [_a-z]" $r/lg-compare.txt | sort -k5 -rn | head -5 | cut -c1-120
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
