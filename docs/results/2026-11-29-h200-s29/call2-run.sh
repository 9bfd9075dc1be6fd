#!/usr/bin/env bash
# Session 29, call 2: why auto lost 8 % on the fused LayerNorm's fwd+bwd at 65536 x 1024 / 4096
# (call 1): off / auto / on twice each with the cache log; Triton's PTX and TTGIR of the corpus's
# slowest-ratio instances (matmul odd, moe_gemm odd, collatz, attention small).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
for occ in off auto on off auto; do
  KILN_LOG=cache KILN_OCCUPANCY=$occ KILN_CACHE_DIR=/tmp/kln2 timeout 45 python3 bench/layernorm_best.py --quick --reps 12,25 --columns kiln --dtype fp16 --mode fwdbwd --M 65536 --N 1024,4096 --max-seconds 35 --out $OUT/o > $OUT/ln-$occ.txt 2>&1; echo "ln $occ rc=$?"
  grep -E "^\| fwdbwd|own build .* ms|a build capped" $OUT/ln-$occ.txt | cut -c1-230 | sort | uniq -c
done
date -u >> $OUT/device.txt
for f in matmul_kernel/odd/fp16 moe_gemm_kernel/odd/fp16 collatz_steps_kernel/small attention_kernel/small/fp16; do
  TRITON_CACHE_DIR=$OUT/tc timeout 60 python3 bench/corpus_run.py --filter $f --triton-only > /dev/null 2>&1; echo "$f rc=$?"
done
find $OUT/tc -name "*.ptx" -o -name "*.ttgir" | head -20
cd $OUT && mkdir -p tcx && find tc \( -name "*.ptx" -o -name "*.ttgir" \) -exec cp {} tcx/ \; && tar czf call2.tgz *.txt tcx && rm -rf *.txt tcx tc o
