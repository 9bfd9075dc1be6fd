#!/usr/bin/env bash
# Session 36, call 2 (call 1 crashed on an erased loop: fixed): the next tile's prologue started before the current tile's epilogue
# (NextTilePrologue.h). The TMA family of compare_kernels (tutorial 09's persistent kernels added,
# TMA and pointer versions, against Triton); then tutorial 09's kernels, the file unmodified,
# under Kiln (this commit), Kiln before the change (libkiln of cb2cdb1, .device/prev) and Triton,
# each from a cold cache, in one call.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 200 python3 test/gpu/compare_kernels.py --only tma,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -12
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
KILN_CACHE_DIR=/tmp/kc9 timeout 120 python3 -m kiln.run bench/tutorial09_bench.py $T09 > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "kiln rc=$?"
mkdir -p /tmp/old && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.device/prev/libkiln-old.so.xz'), open('/tmp/old/libkiln.so', 'wb'))"
KILN_LIBRARY=/tmp/old/libkiln.so KILN_CACHE_DIR=/tmp/kc9old timeout 120 python3 -m kiln.run bench/tutorial09_bench.py $T09 > $OUT/t09-kiln-old.jsonl 2> $OUT/t09-kiln-old.err; echo "kiln old rc=$?"
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc9 timeout 250 python3 bench/tutorial09_bench.py $T09 > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "triton rc=$?"
date -u >> $OUT/device.txt
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl $OUT/t09-kiln-old.jsonl; tail -3 $OUT/t09-kiln.err | cut -c1-300
