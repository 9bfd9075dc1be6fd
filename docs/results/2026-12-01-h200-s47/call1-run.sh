#!/usr/bin/env bash
# Session 47, call 1: session 46's unmeasured code at 673010b. compare_kernels ragged / sort /
# tma / desc against Triton (bitonic_merge, ragged TMA, descriptor squeeze); Liger's own MLP /
# SwiGLU / GeGLU tests under Kiln; Liger's fused MLP (`_swiglu_kernel_forward`, 3-D descriptor
# blocks now cp.async-pipelined) timed under Triton and Kiln (bench/liger_bench.py --only mlp);
# Triton's test_tensor_descriptor.py on a stride-3 sample under Kiln.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 130 python3 test/gpu/compare_kernels.py --only ragged,sort,tma,desc > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -12
date -u >> $r/device.txt
mkdir -p $r/liger
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 110 \
  --keep $r/liger/keep --files test/transformers/test_mlp.py test/transformers/test_swiglu.py \
  test/transformers/test_geglu.py > $r/liger-tests.txt 2>&1; echo "liger tests rc=$?"
grep -E "passed|failed|FAIL" $r/liger-tests.txt | cut -c1-200 | head -12
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 90 python3 bench/liger_bench.py --only mlp,swiglu --out $r/mlp-triton.json > $r/mlp-triton.txt 2>&1; echo "mlp triton rc=$?"
KILN_CACHE_DIR=/tmp/kc3 timeout 90 python3 -m kiln.run bench/liger_bench.py --only mlp,swiglu --out $r/mlp-kiln.json > $r/mlp-kiln.txt 2>&1; echo "mlp kiln rc=$?"
python3 bench/liger_bench.py --compare $r/mlp-triton.json $r/mlp-kiln.json > $r/mlp-compare.txt 2>&1
cut -c1-180 $r/mlp-compare.txt | head -20
date -u >> $r/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kc1 timeout 140 test/gpu/tritontests/run.sh $r/td 3 125 unit/language/test_tensor_descriptor.py > $r/td-run.txt 2>&1; echo "tensor_descriptor rc=$?"
grep -E "passed|failed" $r/td-run.txt | cut -c1-200 | head -4
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
