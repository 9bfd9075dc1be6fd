#!/usr/bin/env bash
# Session 41, call 4: after 969365f (a 1-D load pinned to its coalesced layout is one row of its
# slot: call 3's compare_kernels aborted on vLLM's fused MoE at 2 warps). Every compare_kernels
# family, RuntimeGpuTests, Liger's operators under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 260 python3 test/gpu/compare_kernels.py > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error" $r/compare.txt | cut -c1-220 | tail -12
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 120 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $r/gtest.txt 2>&1; echo "gtest rc=$?"; tail -3 $r/gtest.txt
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 130 python3 bench/liger_bench.py --out $r/lg-triton.json > $r/lg-triton.log 2>&1; echo "liger triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/liger_bench.py --out $r/lg-kiln.json > $r/lg-kiln.log 2>&1; echo "liger kiln rc=$?"
python3 bench/liger_bench.py --compare $r/lg-triton.json $r/lg-kiln.json > $r/lg-compare.txt 2>&1
grep -E "^    [_a-z]|geomean|DIFF|rror" $r/lg-compare.txt | grep -v Memcpy | cut -c1-160
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
