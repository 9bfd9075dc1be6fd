#!/usr/bin/env bash
# mamba (state-spaces/mamba)'s own Triton op tests (tests/ops/triton, unmodified)
# on a fixed sample under `python -m kiln.run -m pytest` (and, without
# ONLY=kiln, under Triton), through attorch/run_sample.py. Device only.
#
#   scripts/kiln-pytest-env.sh test/gpu/run_mamba.sh [OUT] [STRIDE] [TIMEOUT_S]
#
# The tree is .ext/mamba (git-ignored): mamba_ssm/, tests/ops/triton,
# setup.py, pyproject.toml and LICENSE (Apache-2.0) of github
# state-spaces/mamba, commit in its COMMIT file; carry it to the device. The
# package's CUDA extensions (selective_scan_cuda, causal_conv1d) are absent
# there: mamba_ssm imports without them, and these tests do not use them.
# FILES="tests/ops/triton/test_x.py ..." narrows the sample.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-out}; stride=${2:-4}; timeout=${3:-300}
tree="$root/.ext/mamba"
if [ -z "${FILES:-}" ]; then
  FILES=$(cd "$tree" && ls tests/ops/triton/test_*.py)
fi
mkdir -p "$out"
python3 "$root/test/gpu/attorch/run_sample.py" ${ONLY:+--only $ONLY} --root "$tree" \
  --stride "$stride" --timeout "$timeout" --keep "$out/keep" --files $FILES \
  | tee "$out/mamba.txt"
