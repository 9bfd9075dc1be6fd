#!/usr/bin/env bash
# Session 43, call 1: vLLM's kernels (bench/vllm_bench.py, vllm-project/vllm 9aaf83e in .ext/vllm,
# carried) under Triton 3.6 and under Kiln's drop-in, after 6d68575 (block int8 matmul's column
# scales in their own layout) and the slot refill where a second program fits (fused MoE decode,
# MLA decode stage 1). Every checksum must be equal; the ratios against session 42's call 9.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
echo "vllm tree: $(cat .ext/vllm/COMMIT 2>/dev/null || echo MISSING: carry .ext/vllm)" | tee -a $r/device.txt
git log --oneline -1 >> $r/device.txt 2>/dev/null
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
date -u >> $r/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
date -u >> $r/device.txt
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | cut -c1-200
grep -h '"error"' $r/vllm-triton.log $r/vllm-kiln.log | cut -c1-400
tail -3 $r/vllm-triton.log $r/vllm-kiln.log | grep -iE "error|Traceback|Killed" | cut -c1-300
# Second Kiln run from the warm cache: timing noise of the same code.
KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln2.json > $r/vllm-kiln2.log 2>&1; echo "vllm kiln2 rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln2.json 2>&1 | grep -E "geomean|fused_moe|mla|int8|prefix|unified" | cut -c1-200
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
