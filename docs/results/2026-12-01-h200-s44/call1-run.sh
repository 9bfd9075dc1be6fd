#!/usr/bin/env bash
# Session 44, call 1: copies before the carried pointers' increments (StagePlan emitStage0),
# scratch exchanges with the index bits reordered for the reader's vectors, the scan's
# cross-warp scratch one total per block, the new fp8 block-scaled corpus case.
# RuntimeGpuTests; the corpus kernels whose PTX changed, against Triton; vLLM's kernels under
# both; compare_kernels shape / scan / dot; mamba's SSD tests under Kiln (a scan changed).
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
for k in block_scaled matmul_kernel bmm_bias moe_gemm histogram; do
  KILN_CACHE_DIR=/tmp/kc2 timeout 100 python3 bench/corpus_run.py --filter $k --json $r/corpus-$k.json >> $r/corpus.txt 2>&1; echo "corpus $k rc=$?"
done
grep -E " ratio |geometric|correct" $r/corpus.txt | cut -c1-170 | head -60
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | grep -E "^    |geomean|DIFF|differ" | cut -c1-200
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only shape,scan,dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8; echo "passed: $(grep -c '^PASS' $r/compare.txt) failed: $(grep -c '^FAIL' $r/compare.txt)"
date -u >> $r/device.txt
ONLY=kiln FILES=tests/ops/triton/test_ssd.py KILN_CACHE_DIR=/tmp/kc3 timeout 110 test/gpu/run_mamba.sh $r/mamba 2 100 > $r/mamba-run.txt 2>&1; echo "mamba rc=$?"
tail -3 $r/mamba-run.txt | cut -c1-200
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
