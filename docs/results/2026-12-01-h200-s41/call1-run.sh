#!/usr/bin/env bash
# Session 41, call 1: scans with the warp bits in one round and the read-only layout widening
# (548ebde, bfc9e49: corpus PTX unchanged). compare_kernels' scan family (new 2-32 warp cases),
# lightllm's operators (never run on Kiln) and Liger's sparsemax under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 120 python3 test/gpu/compare_kernels.py --only scan > $r/compare-scan.txt 2>&1; echo "scan rc=$?"
grep -E "^FAIL|passed, " $r/compare-scan.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 170 python3 bench/lightllm_bench.py --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/lightllm_bench.py --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json > $r/ll-compare.txt 2>&1
cat $r/ll-compare.txt | grep -v Memcpy | cut -c1-220
tail -5 $r/ll-triton.log | cut -c1-300; tail -5 $r/ll-kiln.log | cut -c1-300
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 60 python3 bench/liger_bench.py --only sparsemax --out $r/lg-triton.json > $r/lg-triton.log 2>&1; echo "liger triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 40 python3 -m kiln.run bench/liger_bench.py --only sparsemax --out $r/lg-kiln.json > $r/lg-kiln.log 2>&1; echo "liger kiln rc=$?"
python3 bench/liger_bench.py --compare $r/lg-triton.json $r/lg-kiln.json | tee $r/lg-compare.txt | grep -v Memcpy
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
