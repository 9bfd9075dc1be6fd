#!/usr/bin/env bash
# Session 40, call 3: Liger's operators under Triton, Kiln (default JIT rule) and Kiln with every
# kernel JIT-compiled as a whole program (KILN_JIT=whole), one call; KILN_LOG=cache records the
# register-cap plans and auto choices.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 200 python3 bench/liger_bench.py --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 -m kiln.run bench/liger_bench.py --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
KILN_JIT=whole KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc2 timeout 150 python3 -m kiln.run bench/liger_bench.py --out $r/kiln-whole.json > $r/kiln-whole.log 2>&1; echo "kiln whole rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json > $r/compare-default.txt
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln-whole.json > $r/compare-whole.txt
grep -E "registers|own build" $r/kiln.log | sort | uniq | head -60
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
