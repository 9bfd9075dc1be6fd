#!/usr/bin/env bash
# Session 47, call 2 (28bbf19): TMA copies of squeezed rank-3..5 descriptor blocks and tf32
# wgmma for dots sharing an operand. compare_kernels ragged / desc / tma against Triton (4-D
# ragged and 3-D batched blocks now TMA); Liger's fused MLP timed under Triton and Kiln; Liger's
# test_mlp (fp32 / bf16 / fp16 LlamaMLP, configs with pre_hooks now built ahead) under Kiln;
# Triton's test_tensor_descriptor.py (stride 3) under Kiln.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only ragged,desc,tma > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -12; echo "PASS $(grep -c ^PASS $r/compare.txt)"
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/liger_bench.py --only mlp --out $r/mlp-triton.json > $r/mlp-triton.txt 2>&1; echo "mlp triton rc=$?"
KILN_CACHE_DIR=/tmp/kc3 timeout 80 python3 -m kiln.run bench/liger_bench.py --only mlp --out $r/mlp-kiln.json > $r/mlp-kiln.txt 2>&1; echo "mlp kiln rc=$?"
python3 bench/liger_bench.py --compare $r/mlp-triton.json $r/mlp-kiln.json > $r/mlp-compare.txt 2>&1
cut -c1-180 $r/mlp-compare.txt | head -12
date -u >> $r/device.txt
mkdir -p $r/liger
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 120 \
  --keep $r/liger/keep --files test/transformers/test_mlp.py -- -k llamamlp > $r/liger-tests.txt 2>&1; echo "liger tests rc=$?"
grep -E "passed|FAIL" $r/liger-tests.txt | cut -c1-220 | head -12
date -u >> $r/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kc1 timeout 100 test/gpu/tritontests/run.sh $r/td 3 90 unit/language/test_tensor_descriptor.py > $r/td-run.txt 2>&1; echo "tensor_descriptor rc=$?"
grep -E "passed|FAIL" $r/td/tritontests.txt | cut -c1-200 | head -14
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
