#!/usr/bin/env bash
# Session 40, call 9: scans exchange each block's total once per warp bit (ScanOpToLLVM.cpp;
# corpus PTX unchanged). compare_kernels' scan family, Liger's sparsemax under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 90 python3 test/gpu/compare_kernels.py --only scan > $r/compare-scan.txt 2>&1; echo "scan rc=$?"
grep -E "^FAIL|passed, " $r/compare-scan.txt | cut -c1-200 | tail -6
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 60 python3 bench/liger_bench.py --only sparsemax,poly_norm --out $r/triton.json > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 40 python3 -m kiln.run bench/liger_bench.py --only sparsemax,poly_norm --out $r/kiln.json > $r/kiln.log 2>&1; echo "kiln rc=$?"
python3 bench/liger_bench.py --compare $r/triton.json $r/kiln.json | tee $r/compare.txt | grep -v Memcpy
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
