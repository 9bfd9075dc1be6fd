#!/usr/bin/env bash
# Session 43, call 4: ncu of what is left slow in vLLM's kernels (block int8 matmul 1.11, fused MoE
# prefill 1.06, top-k/top-p 1.07) under both compilers; and where mamba's test_ssd first calls spend
# Kiln's time (call 3: compile ms median 29.9 s per kernel against 7.9 s on 2026-11-29):
# KILN_LOG=cache,autotune, summed compile ms, driver JIT ms and autotune timings.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
( cd .ext/mamba && KILN_LOG=cache,autotune KILN_CACHE_DIR=/tmp/kcm CUDA_CACHE_DISABLE=1 timeout 150 \
    python3 -m kiln.run -m pytest -q -x tests/ops/triton/test_ssd.py > $r/mamba-pytest.txt 2> $r/mamba-log.txt ); echo "mamba rc=$?"
tail -2 $r/mamba-pytest.txt
grep -c "compiled in" $r/mamba-log.txt | sed 's/^/compiles: /'
grep -o "compiled in [0-9.]* ms" $r/mamba-log.txt | awk '{s+=$3} END {print "compile ms total", s}'
grep -c "driver JIT in" $r/mamba-log.txt | sed 's/^/driver JITs: /'
grep -o "driver JIT in [0-9.]* ms" $r/mamba-log.txt | awk '{s+=$4} END {print "driver JIT ms total", s}'
grep -c "autotune" $r/mamba-log.txt | sed 's/^/autotune lines: /'
grep "compiled in" $r/mamba-log.txt | sed -E 's/.*(store|miss)? *([A-Za-z_0-9]+) .*compiled in ([0-9.]+) ms.*/\2 \3/' | awk '{n[$1]++; s[$1]+=$2} END {for (k in n) print k, n[k], "compiles", s[k], "ms"}' | sort
date -u >> $r/device.txt
B=bench/vllm_bench.py
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis"
run() { # op, kernel regex
  TRITON_CACHE_DIR=/tmp/tc timeout 60 $NCU -k regex:"$2" --launch-skip 2 --launch-count 1 python3 $B --only $1 --reps 3 --warmup 1 --prof-reps 0 > $r/ncu-triton-$1.txt 2>&1; echo "ncu triton $1 rc=$?"
  KILN_CACHE_DIR=/tmp/kc timeout 60 $NCU -k regex:"$2" --launch-skip 2 --launch-count 1 python3 -m kiln.run $B --only $1 --reps 3 --warmup 1 --prof-reps 0 > $r/ncu-kiln-$1.txt 2>&1; echo "ncu kiln $1 rc=$?"
}
run block_int8_matmul _w8a8_block_int8_matmul
run fused_moe fused_moe_kernel
run topk_topp _topk_topp_kernel
for op in block_int8_matmul fused_moe topk_topp; do for w in triton kiln; do echo "== $w $op"; grep -E "Duration|Registers Per|Achieved Occupancy|Executed Instructions  |Warp Cycles Per Issued|Stall|L1/TEX Hit|Dynamic Shared" $r/ncu-$w-$op.txt | head -9; done; done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
