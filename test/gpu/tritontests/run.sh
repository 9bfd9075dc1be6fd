#!/usr/bin/env bash
# Triton's own language tests (python/test/unit/language of Triton 3.6's
# tree, unmodified) on a fixed sample under `python -m kiln.run -m pytest`
# (and, without ONLY=kiln, under Triton), through attorch/run_sample.py.
# Device only.
#
#   scripts/kiln-pytest-env.sh test/gpu/tritontests/run.sh OUT STRIDE TIMEOUT_S FILE...
#
# The tree is .ext/triton36 (git-ignored): python/test/unit/language,
# python/test/conftest.py and the helper modules python/triton/_internal_testing.py
# and python/triton/tools/mxfp.py of github triton-lang/triton at dff2b0200837
# (2025-12-10: the device's Triton 3.6 wheel lacks the next change to
# _internal_testing.py), MIT licence; carry it to the device. FILEs are relative to python/test
# (unit/language/test_core.py ...); KEXPR=EXPR selects tests by pytest's -k.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-out}; stride=${2:-10}; timeout=${3:-400}; shift 3
tree="$root/.ext/triton36/python"
mkdir -p "$out"
export TRITON_TREE="$tree"
export PYTHONPATH="$root/test/gpu/tritontests${PYTHONPATH:+:$PYTHONPATH}"
python3 "$root/test/gpu/attorch/run_sample.py" ${ONLY:+--only $ONLY} --root "$tree/test" \
  --stride "$stride" --timeout "$timeout" --keep "$out/keep" --files "$@" \
  -- -p triton_internal_testing ${KEXPR:+-k "$KEXPR"} | tee "$out/tritontests.txt"
