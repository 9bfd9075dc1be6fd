#!/usr/bin/env bash
# Session 42, call 9 (the helper's call-vllm-run.sh, after 659b993 fixed the three drop-in gaps
# its CPU check found, plus compare_kernels' scan / sort / tma families for 3d9a559's tuple
# reductions and what call 8's time limit cut, and lightllm's MoE router):  vLLM's own Triton kernels (bench/vllm_bench.py; vllm-project/vllm
# 9aaf83e, its files in .ext/vllm, which the call must carry), never timed on Kiln before: 13
# ops under Triton 3.6 and under Kiln's drop-in, kernel by kernel, and the comparison. The CPU
# compile check (stand-in driver) expects 5 ops to fail under Kiln with CompilationError rows
# (an IntEnum constexpr, FP8_MIN defaults from torch.finfo, a -inf constexpr): unified_attention,
# unified_attention_decode, prefix_prefill, merge_attn_states, topk_topp. Wall time < 200 s.
set -u
# From the repo root, as the device call runs it (or from a copy one or three levels down).
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
echo "vllm tree: $(cat .ext/vllm/COMMIT 2>/dev/null || echo MISSING: carry .ext/vllm)" | tee -a $r/device.txt
python3 -c "import torch, triton, packaging; print('torch', torch.__version__, 'triton', triton.__version__)" >> $r/device.txt 2>&1
# Rows are written after each op: a run cut short by its timeout keeps what it timed.
TRITON_CACHE_DIR=/tmp/tc timeout 130 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
date -u >> $r/device.txt
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kc1 timeout 90 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
date -u >> $r/device.txt
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | cut -c1-200
grep -h '"error"' $r/vllm-triton.log $r/vllm-kiln.log | cut -c1-400
tail -3 $r/vllm-triton.log $r/vllm-kiln.log | grep -iE "error|Traceback|Killed" | cut -c1-300
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only scan,sort,tma > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -6; echo "bitwise equal: $(grep -c 'bitwise equal' $r/compare.txt)"
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc2 timeout 60 python3 bench/lightllm_bench.py --only softmax_topk,token_att1,flash_decoding --out $r/ll-triton.json > $r/ll-triton.log 2>&1; echo "ll triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run bench/lightllm_bench.py --only softmax_topk,token_att1,flash_decoding --out $r/ll-kiln.json > $r/ll-kiln.log 2>&1; echo "ll kiln rc=$?"
python3 bench/lightllm_bench.py --compare $r/ll-triton.json $r/ll-kiln.json 2>&1 | grep -E "^    [_a-z]|same|DIFF" | cut -c1-160
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
