#!/usr/bin/env bash
# Session 43, call 2: vLLM's kernels under Triton 3.6 and Kiln after tl.range's
# loop_unroll_factor is honoured (--tile-unroll-loops) and loop-invariant dot operands are staged
# at num_stages=1 too (prefix prefill, ViT attention); compare_kernels' compat family (the
# unrolled loops' trip counts against Triton, bitwise) and dot family.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only compat,dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, |unroll" $r/compare.txt | cut -c1-200 | tail -14
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | cut -c1-200
grep -h '"error"' $r/vllm-triton.log $r/vllm-kiln.log | cut -c1-400
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
