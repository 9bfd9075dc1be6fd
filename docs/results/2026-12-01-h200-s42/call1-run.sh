#!/usr/bin/env bash
# Session 42, call 1: Triton's PTX / TTGIR of lightllm's kernels that Kiln runs slower
# (its cache directory, tarred), and the launch path from Python in three processes
# (one unpinned, two pinned to a CPU of the GPU's NUMA affinity), with the driver's
# packed-buffer launch (CU_LAUNCH_PARAM_BUFFER_POINTER) as a second floor.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
nvidia-smi topo -m >> $r/device.txt 2>&1; lscpu | grep -iE "model name|numa|^cpu\(s\)|thread|mhz" >> $r/device.txt
TRITON_CACHE_DIR=$OUT/tc timeout 120 python3 bench/lightllm_bench.py --only token_att1,flash_decoding,gelu_and_mul,softmax_topk,gqa_flash_decoding --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
tar czf $r/triton-cache.tgz -C $OUT tc
cpus=$(nvidia-smi topo -m 2>/dev/null | awk '/^GPU0/{for(i=1;i<=NF;i++) if($i ~ /^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$/ && $i ~ /-/){print $i; exit}}')
first=${cpus%%[-,]*}; echo "GPU0 CPU affinity: '$cpus' -> pin to ${first:-0}" | tee -a $r/device.txt
cd python/tests
for i in 1 2 3; do
  if [ $i = 1 ]; then pre=""; else pre="taskset -c ${first:-0}"; fi
  echo "== process $i: ${pre:-unpinned}" >> $r/launch.txt
  KILN_CACHE_DIR=/tmp/kl$i timeout 120 $pre python3 gpu_launch_breakdown.py 2>&1 | grep -v "^{" >> $r/launch.txt
done
cat $r/launch.txt
cd ../..
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
