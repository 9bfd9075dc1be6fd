#!/usr/bin/env bash
# Session 43, call 6: the session's final code (8c20396; the mma.sync ldmatrix.x4 pairing of call 5
# reverted). RuntimeGpuTests; vLLM's kernels under both compilers (final numbers); every
# compare_kernels family as far as its time limit reaches.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 120 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $r/gtest.txt 2>&1; echo "gtest rc=$?"; tail -2 $r/gtest.txt
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | cut -c1-200
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 190 python3 test/gpu/compare_kernels.py > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |Abort|Error" $r/compare.txt | cut -c1-200 | tail -25; echo "passed: $(grep -c '^PASS' $r/compare.txt) failed: $(grep -c '^FAIL' $r/compare.txt)"
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
