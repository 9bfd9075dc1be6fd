#!/usr/bin/env bash
# Liger-Kernel's own op tests (test/transformers/test_<op>.py, unmodified) on a
# fixed sample under `python -m kiln.run -m pytest` (and, without --only, under
# Triton), through attorch/run_sample.py. Device only.
#
#   scripts/kiln-pytest-env.sh test/gpu/run_liger.sh [OUT] [STRIDE] [TIMEOUT_S]
#
# The tree is .ext/liger (git-ignored): the src/, test/ (less test/resources),
# pyproject.toml and LICENSE of github linkedin/Liger-Kernel, commit in its
# COMMIT file; carry it to the device. ONLY=kiln runs one backend.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-out}; stride=${2:-10}; timeout=${3:-400}
ops="rms_norm layer_norm swiglu geglu rope cross_entropy kl_div jsd group_norm softmax
     sparsemax dyt tvd qwen2vl_mrope llama4_rope fused_add_rms_norm poly_norm embedding
     relu_squared modulated_rms_norm fused_linear_cross_entropy fused_linear_jsd grpo_loss
     multi_token_attention attn_res mhc"
files=()
for op in $ops; do files+=("test/transformers/test_$op.py"); done
mkdir -p "$out"
python3 "$root/test/gpu/attorch/run_sample.py" ${ONLY:+--only $ONLY} --root "$root/.ext/liger" \
  --stride "$stride" --timeout "$timeout" --keep "$out/keep" --files "${files[@]}" \
  | tee "$out/liger.txt"
