#!/usr/bin/env bash
# Session 37, call 1: descriptor stores by TMA (TmaStores.cpp). compare_kernels' TMA, descriptor
# and dot families against Triton (new: tma_store_tiles, stores by host descriptors and ones made
# in the kernel, two in flight per iteration, every dtype and swizzle, blocks past the edges);
# RuntimeGpuTests; then every config of tutorial 09's TMA and descriptor persistent kernels
# alone (K = 512, fp16 and fp8), Kiln at this commit and before (dba359a), alternating.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 240 python3 test/gpu/compare_kernels.py --only tma,desc,dot > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -14
date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 100 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $OUT/gtest-gpu.txt 2>&1; echo "gtest rc=$?"; tail -2 $OUT/gtest-gpu.txt
date -u >> $OUT/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
ARGS="--per-config --sizes 8192x8192x512 --kernels tma_persistent,descriptor_persistent"
mkdir -p /tmp/old && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.device/prev/libkiln-old.so.xz'), open('/tmp/old/libkiln.so', 'wb'))"
KILN_CACHE_DIR=/tmp/kcn timeout 100 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-new.jsonl 2> $OUT/cfg-new.err; echo "new rc=$?"
date -u >> $OUT/device.txt
KILN_LIBRARY=/tmp/old/libkiln.so KILN_CACHE_DIR=/tmp/kco timeout 100 python3 -m kiln.run bench/tutorial09_bench.py $T09 $ARGS > $OUT/cfg-old.jsonl 2> $OUT/cfg-old.err; echo "old rc=$?"
date -u >> $OUT/device.txt
wc -l $OUT/*.jsonl; tail -2 $OUT/cfg-new.err | cut -c1-300
