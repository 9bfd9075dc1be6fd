#!/usr/bin/env bash
# Session 43, call 5: mma.sync B operands read two K steps per ldmatrix.x4 (DotOpToLLVM.cpp /
# DotOperandToLLVM.cpp) and the pipeliner's slot budget shared with what runs before the K loop
# (vLLM's fused MoE prefill at its 4 stages). Correctness: compare_kernels dot + dotscaled
# (mma.sync layouts), mamba's SSD tests under Kiln (its 2-warp mma.sync kernels; KILN_LOG
# summary of compile / driver JIT / autotune time); timing against Triton: mamba's chunk
# state / chunk scan configs, vLLM's kernels.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only dot,dotscaled > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
( cd .ext/mamba && KILN_LOG=cache,autotune KILN_CACHE_DIR=/tmp/kcm timeout 120 \
    python3 -m kiln.run -m pytest -s -q -x tests/ops/triton/test_ssd.py > $r/mamba-pytest.txt 2>&1 ); echo "mamba rc=$?"
grep -E "passed|failed" $r/mamba-pytest.txt | tail -2
echo "compiles: $(grep -c 'compiled in' $r/mamba-pytest.txt), ms $(grep -o 'compiled in [0-9.]* ms' $r/mamba-pytest.txt | awk '{s+=$3} END {print s}')"
echo "driver JITs: $(grep -c 'driver JIT in' $r/mamba-pytest.txt), ms $(grep -o 'driver JIT in [0-9.]* ms' $r/mamba-pytest.txt | awk '{s+=$4} END {print s}')"
echo "autotune lines: $(grep -c 'kiln\[autotune\]' $r/mamba-pytest.txt)"
grep 'kiln\[autotune\]' $r/mamba-pytest.txt | head -5 | cut -c1-200
date -u >> $r/device.txt
timeout 110 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-triton.json > $r/mk-triton.txt 2>&1; echo "mk triton rc=$?"
KILN_CACHE_DIR=/tmp/kc-mk timeout 80 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-kiln.json > $r/mk-kiln.txt 2>&1; echo "mk kiln rc=$?"
paste <(grep -E "^[_a-z]" $r/mk-triton.txt | cut -c1-90) <(grep -E "^[_a-z]" $r/mk-kiln.txt | cut -c40-90) | head -30
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | grep -E "^    |geomean|same|DIFF|differ" | cut -c1-200
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
