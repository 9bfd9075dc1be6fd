#!/usr/bin/env bash
# flash-linear-attention's own op and module tests (tests/ops, tests/modules,
# unmodified) on a fixed sample under `python -m kiln.run -m pytest` (and,
# without ONLY=kiln, under Triton), through attorch/run_sample.py. Device only.
#
#   scripts/kiln-pytest-env.sh test/gpu/run_fla.sh [OUT] [STRIDE] [TIMEOUT_S]
#
# The tree is .ext/fla (git-ignored): fla/, tests/conftest.py, tests/ops,
# tests/modules, pyproject.toml, setup.py and LICENSE (MIT) of github
# fla-org/flash-linear-attention, commit in its COMMIT file; carry it to the
# device. FILES="tests/ops/test_x.py ..." narrows the sample; test_dplr_tilelang
# (TileLang, not Triton) is left out.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-out}; stride=${2:-20}; timeout=${3:-500}
fla="$root/.ext/fla"
if [ -z "${FILES:-}" ]; then
  FILES=$(cd "$fla" && ls tests/ops/test_*.py tests/ops/utils/test_*.py tests/modules/test_*.py \
          | grep -v test_dplr_tilelang)
fi
mkdir -p "$out"
python3 "$root/test/gpu/attorch/run_sample.py" ${ONLY:+--only $ONLY} --root "$fla" \
  --stride "$stride" --timeout "$timeout" --keep "$out/keep" --files $FILES \
  | tee "$out/fla.txt"
