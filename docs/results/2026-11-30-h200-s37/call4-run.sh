#!/usr/bin/env bash
# Session 37, call 4: the fused-attention tutorial's forward config by config (N_CTX 4096, not
# causal, HEAD_DIM 64 and 128), whose O store is now a TMA store: Kiln at this commit and before
# (dba359a), alternating twice. Then tutorial 09's fp8 TMA and descriptor persistent kernels,
# autotuned, K = 512, under Kiln and Triton (call 3 ran out of time before fp8).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
mkdir -p /tmp/old && python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('.device/prev/libkiln-old.so.xz'), open('/tmp/old/libkiln.so', 'wb'))"
B="bench/tutorial06_bench.py --modes fwd --causal no --n-ctx 4096 --per-config"
for round in 1 2; do
  KILN_CACHE_DIR=/tmp/kcn timeout 60 python3 -m kiln.run $B --json $OUT/pc-new$round.json > $OUT/pc-new$round.txt 2>&1; echo "new rc=$?"
  KILN_LIBRARY=/tmp/old/libkiln.so KILN_CACHE_DIR=/tmp/kco timeout 60 python3 -m kiln.run $B --json $OUT/pc-old$round.json > $OUT/pc-old$round.txt 2>&1; echo "old rc=$?"
  date -u >> $OUT/device.txt
done
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
A="--sizes 8192x8192x512 --dtypes fp8 --kernels tma_persistent,descriptor_persistent"
KILN_CACHE_DIR=/tmp/kc9 timeout 50 python3 -m kiln.run bench/tutorial09_bench.py $T09 $A > $OUT/t09-kiln.jsonl 2> $OUT/t09-kiln.err; echo "t09 kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc9 timeout 90 python3 bench/tutorial09_bench.py $T09 $A > $OUT/t09-triton.jsonl 2> $OUT/t09-triton.err; echo "t09 triton rc=$?"
date -u >> $OUT/device.txt
cat $OUT/t09-triton.jsonl $OUT/t09-kiln.jsonl | cut -c1-300
