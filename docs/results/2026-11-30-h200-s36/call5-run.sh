#!/usr/bin/env bash
# Session 36, call 5: K = 4096 (call 2 autotuned the descriptor kernel 5 % slower there, within the
# run-to-run spread of autotuned picks): every config of the TMA and descriptor persistent kernels
# alone, fp16, M = N = 8192, K = 4096, Kiln at 31443bb (the bundle of call 4) and before the change (cb2cdb1).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
ARGS="--per-config --sizes 8192x8192x4096 --dtypes fp16 --kernels tma_persistent,descriptor_persistent"
mkdir -p /tmp/old && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.device/prev/libkiln-old.so.xz'), open('/tmp/old/libkiln.so', 'wb'))"
KILN_CACHE_DIR=/tmp/kcn timeout 150 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-new.jsonl 2> $OUT/cfg-new.err; echo "new rc=$?"
date -u >> $OUT/device.txt
KILN_LIBRARY=/tmp/old/libkiln.so KILN_CACHE_DIR=/tmp/kco timeout 150 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-old.jsonl 2> $OUT/cfg-old.err; echo "old rc=$?"
date -u >> $OUT/device.txt
wc -l $OUT/*.jsonl; tail -2 $OUT/cfg-new.err | cut -c1-300
