#!/usr/bin/env bash
# Session 39, call 5: why tail copies made tutorial 09's BN = 128 fp8 configs slower and the
# 128 x 256 x 128 ones faster. The same configs with the libkiln of the commit before the tail
# copies (.device/old) and with the new one: do_bench, then ncu (speed of light, memory
# workload, warp states).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
# Only the two libkiln builds travel (stripped, xz): the Python package is the tree's.
export PYTHONPATH=$PWD/python
xz -dc .device/old/libkiln.so.xz > /tmp/libkiln-old.so
xz -dc .device/new/libkiln.so.xz > /tmp/libkiln-new.so
R=$OUT/r; mkdir -p $R
nvidia-smi -L > $R/device.txt; date -u >> $R/device.txt
T09=$PWD/.ext/triton-tutorials/09-persistent-matmul.py
S=docs/results/2026-11-30-h200-s39/t09_one_config.py
NCU="ncu --kernel-name regex:matmul_kernel_tma_persistent --launch-skip 3 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
for cfg in "128 64 4 8" "128 128 4 8" "256 128 4 8" "256 64 4 8"; do
  for v in old new; do
    lib=/tmp/libkiln-new.so; [ $v = old ] && lib=/tmp/libkiln-old.so
    echo "== $cfg $v $(KILN_LIBRARY=$lib KILN_CACHE_DIR=/tmp/kc-$v timeout 40 python3 -m kiln.run $S $T09 tma_persistent $cfg False 2>&1 | tail -1)"
  done
done
for cfg in "128 64 4 8" "256 128 4 8"; do
  for v in old new; do
    lib=/tmp/libkiln-new.so; [ $v = old ] && lib=/tmp/libkiln-old.so
    n=$(echo $cfg | tr ' ' '-')
    KILN_LIBRARY=$lib KILN_CACHE_DIR=/tmp/kc-$v timeout 60 $NCU python3 -m kiln.run $S $T09 tma_persistent $cfg False > $R/ncu-$n-$v.txt 2>&1
    echo "== ncu $cfg $v rc=$?"; grep -E "Duration|DRAM Throughput|L2 Hit Rate  |Memory Throughput|Elapsed Cycles|Warp Cycles Per Issued|No Eligible" $R/ncu-$n-$v.txt | head -8
  done
done
date -u >> $R/device.txt
tar czf $OUT/call5.tgz -C $R .
