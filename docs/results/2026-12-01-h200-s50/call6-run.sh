#!/usr/bin/env bash
# Session 50, call 6 (the final code): Liger's own test_mlp (LlamaMLP fp32 / bf16 / fp16, its
# autotuned fused-MLP kernels) under Kiln, with the squeezed epilogue stores and the in-flight rule.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/liger
python3 test/gpu/attorch/run_sample.py --only kiln --root $PWD/.ext/liger --stride 1 --timeout 100 \
  --keep $r/liger/keep --files test/transformers/test_mlp.py -- -k llamamlp > $r/liger-tests.txt 2>&1; echo "liger tests rc=$?"
grep -E "passed|FAIL|failed" $r/liger-tests.txt | cut -c1-220 | head -12
