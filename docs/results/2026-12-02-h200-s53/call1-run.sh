#!/usr/bin/env bash
# Session 53, call 1 (code 84de94a + bench/fla_bench.py): flash-linear-attention's operators
# (fla bc3b101, unmodified, .ext/fla; its own benchmark registry's inputs, B4_T2048_H16_D128,
# bf16), forward only, under Triton 3.6 then under Kiln, each autotuning with fla's own
# config lists from a cold cache; per-kernel CUDA times. The compiled code of both (Triton's
# PTX / TTGIR, Kiln's cache entries) comes back for the kernels that differ.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
pip list 2>/dev/null | grep -i -E "^(torch|triton|einops|transformers) " >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 330 python3 bench/fla_bench.py --fwd-only --reps 20 --warmup 3 \
  --prof-reps 5 --out $r/triton.json > $r/triton.txt 2>&1; echo "triton rc=$?"
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc timeout 200 python3 -m kiln.run --report bench/fla_bench.py --fwd-only \
  --reps 20 --warmup 3 --prof-reps 5 --out $r/kiln.json > $r/kiln.txt 2>&1; echo "kiln rc=$?"
date -u >> $r/device.txt
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
cat $r/compare.txt
tar czf $OUT/results.tgz -C $OUT r
( cd /tmp/tc && find . \( -name "*.ptx" -o -name "*.ttgir" -o -name "*.json" \) -print0 | \
  tar czf $OUT/triton-cache.tgz --null -T - )
tar czf $OUT/kiln-cache.tgz -C /tmp kc
ls -la $OUT
