#!/usr/bin/env bash
# Session 32, call 4: a tile used as it is and transposed (the fused-attention backward's Q^T and
# dO) is now pipelined into one slot that wgmma reads with either majorness; correctness first
# (RuntimeGpuTests; dot / block-pointer / descriptor families against Triton; the tutorial's own
# pytest for forward and backward under Kiln; the corpus kernel whose PTX changed), then the
# tutorial table under Kiln (Triton's numbers: call 1).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 150 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only dot,blockptr,desc > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | tail -6
date -u >> $OUT/device.txt
(cd .ext/triton-tutorials && KILN_CACHE_DIR=/tmp/kc-t6 timeout 120 python3 -m kiln.run -m pytest -q -p no:cacheprovider 06-fused-attention.py -k "128-2-1 or 1024-2-1 or 4096-2-1" > $OUT/t06-pytest.txt 2>&1; echo "t06 pytest rc=$?")
tail -2 $OUT/t06-pytest.txt
KILN_CACHE_DIR=/tmp/kcc timeout 60 python3 bench/corpus_run.py --filter col_sum_while > $OUT/corpus-colsum.txt 2>&1; echo "corpus rc=$?"
grep -E "^col_sum" $OUT/corpus-colsum.txt | cut -c1-150
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc6 timeout 150 python3 -m kiln.run --report bench/tutorial06_bench.py --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
date -u >> $OUT/device.txt
