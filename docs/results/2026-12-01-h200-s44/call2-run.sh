#!/usr/bin/env bash
# Session 44, call 2: which of call 1's two code-generation changes moved vLLM's block int8
# matmul (1.10 -> 1.15 of Triton). Four libkiln builds, alternating over three rounds, each in
# its own process and cache: old (218abb6), stage (copies before the carried increments only),
# conv (the scratch-order and scan changes only), new (both; the bundle's). vLLM ops
# block_int8_matmul, fused_moe, fused_moe_decode, scaled_mm_int8; corpus instances whose PTX
# changed (Kiln only). Then ncu of the block int8 matmul, old against new.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
# No device bundle this call (carry limit): the tree's python/ with each build's libkiln.
export PYTHONPATH=$PWD/python
r=$OUT/r; mkdir -p $r /tmp/ab
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
tar xJf .ext/ab/ab.tar.xz -C /tmp/ab
lib() { echo /tmp/ab/$1/libkiln.so; }
B=bench/vllm_bench.py
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 $B --only block_int8_matmul,fused_moe,fused_moe_decode,scaled_mm_int8 --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "triton rc=$?"
for round in 1 2 3; do
  for v in old stage conv new; do
    KILN_LIBRARY=$(lib $v) KILN_CACHE_DIR=/tmp/kc-$v timeout 100 python3 -m kiln.run $B --only block_int8_matmul,fused_moe,fused_moe_decode,scaled_mm_int8 --out $r/vllm-$v-$round.json > $r/vllm-$v-$round.log 2>&1 || echo "vllm $v $round failed"
    python3 $B --compare $r/vllm-triton.json $r/vllm-$v-$round.json 2>&1 | grep -E "^    " | awk -v v=$v -v r=$round '{printf "%s r%s %s %s %s\n", v, r, $1, $4, $5}'
  done
done | tee $r/ab-vllm.txt
date -u >> $r/device.txt
for round in 1 2; do
  for v in old stage conv new; do
    for k in matmul_kernel/small moe_gemm_kernel/small moe_gemm_kernel/odd block_scaled_int8_matmul_kernel/small block_scaled_int8_matmul_kernel/odd bmm_bias_kernel/small; do
      KILN_LIBRARY=$(lib $v) KILN_CACHE_DIR=/tmp/kc-$v timeout 60 python3 bench/corpus_run.py --kiln-only --filter $k 2>&1 | grep -E "kiln +[0-9]" | sed "s|^|$v r$round |"
    done
  done
done | tee $r/ab-corpus.txt | cut -c1-120
date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section SchedulerStats"
for v in old new; do
  KILN_LIBRARY=$(lib $v) KILN_CACHE_DIR=/tmp/kc-$v timeout 80 $NCU -k regex:_w8a8_block_int8_matmul --launch-skip 2 --launch-count 1 python3 -m kiln.run $B --only block_int8_matmul --reps 3 --warmup 1 --prof-reps 0 > $r/ncu-$v.txt 2>&1; echo "ncu $v rc=$?"
  grep -E "Duration|Registers Per|Executed Instructions  |Warp Cycles Per Issued|Issued Warp|No Eligible|Stall" $r/ncu-$v.txt | head -12
done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
