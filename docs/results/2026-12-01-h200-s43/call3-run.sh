#!/usr/bin/env bash
# Session 43, call 3: the barrier elision (BarrierElision.cpp: a scratch exchange right after a
# barrier skips its own first one; a tile.barrier that such an exchange already provides goes).
# Checks: compute-sanitizer racecheck + synccheck on the corpus's tensor-core kernels at small
# shapes (Kiln only, the new block_scaled_int8_matmul_kernel among them); the new corpus case
# against Triton (all shapes, timed); vLLM's kernels (checksums vs Triton, times); mamba's own SSD
# tests (chunk scan forward / backward kernels changed) under Kiln; compare_kernels dot, shape,
# scan families.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in racecheck synccheck; do
  for k in block_scaled matmul_kernel attention_kernel moe_gemm bmm_bias; do
    KILN_CACHE_DIR=/tmp/kcs timeout 60 "$cs" --tool $tool --error-exitcode 1 --print-limit 20 \
      --target-processes all --kernel-name-exclude kns=at:: python3 bench/corpus_run.py --quick \
      --kiln-only --no-timing --filter $k > $r/san.txt 2>&1
    echo "sanitize $tool $k rc=$? $(grep -E 'ERROR SUMMARY' $r/san.txt | tail -1) $(grep -cE 'Hazard|hazard' $r/san.txt) hazards $(grep -E 'correct' $r/san.txt | tail -1 | cut -c1-80)"
  done
done 2>&1 | tee $r/sanitize.txt
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc2 timeout 150 python3 bench/corpus_run.py --filter block_scaled --json $r/corpus-scaled.json > $r/corpus-scaled.txt 2>&1; echo "corpus rc=$?"
grep -E "block_scaled|geomean|correct" $r/corpus-scaled.txt | cut -c1-160 | head -12
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | grep -E "^    |geomean|DIFF|differ" | cut -c1-200
date -u >> $r/device.txt
ONLY=kiln FILES=tests/ops/triton/test_ssd.py KILN_CACHE_DIR=/tmp/kc3 timeout 130 test/gpu/run_mamba.sh $r/mamba 2 110 > $r/mamba-run.txt 2>&1; echo "mamba rc=$?"
tail -5 $r/mamba-run.txt | cut -c1-200
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 100 python3 test/gpu/compare_kernels.py --only dot,shape,scan > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
