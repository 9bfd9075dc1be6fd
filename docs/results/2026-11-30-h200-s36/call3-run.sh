#!/usr/bin/env bash
# Session 36, call 3: why call 2's autotuned picks moved (fp8 TMA persistent slower at K = 512):
# every config of tutorial 09's three persistent kernels timed on its own (bench/tutorial09_bench.py
# --per-config), M = N = 8192, K = 512, fp16 and fp8, under Kiln at this commit and before the
# next-tile prologue change (libkiln of cb2cdb1), alternating new / old / new.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
ARGS="--per-config --sizes 8192x8192x512 --kernels persistent,tma_persistent,descriptor_persistent"
mkdir -p /tmp/old && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.device/prev/libkiln-old.so.xz'), open('/tmp/old/libkiln.so', 'wb'))"
KILN_CACHE_DIR=/tmp/kcn timeout 150 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-new.jsonl 2> $OUT/cfg-new.err; echo "new rc=$?"
date -u >> $OUT/device.txt
KILN_LIBRARY=/tmp/old/libkiln.so KILN_CACHE_DIR=/tmp/kco timeout 150 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-old.jsonl 2> $OUT/cfg-old.err; echo "old rc=$?"
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kcn timeout 100 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-new2.jsonl 2> $OUT/cfg-new2.err; echo "new again rc=$?"
date -u >> $OUT/device.txt
wc -l $OUT/*.jsonl; tail -2 $OUT/cfg-new.err | cut -c1-300
