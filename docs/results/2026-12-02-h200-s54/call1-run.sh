#!/usr/bin/env bash
# Session 54, call 1 (1d30e37): the whole GPU dot family against Triton (154 cases, with
# the mended dot_state_recurrence), every fla op under Kiln (first outputs saved), the
# fla ops never timed under Triton (linear_attn, lightning_attn, hgrn, parallel_attn,
# rwkv6) under Triton, outputs compared elementwise.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1
echo "compare rc=$?"; tail -3 $r/compare-dot.txt; grep -i "FAIL" $r/compare-dot.txt | head
date -u >> $r/device.txt
ops=chunk_linear_attn,chunk_lightning_attn,fused_recurrent_hgrn,parallel_attn,chunk_rwkv6
KILN_CACHE_DIR=/tmp/kc timeout 110 python3 -m kiln.run bench/fla_bench.py --fwd-only --only $ops,chunk_rwkv7,chunk_delta_rule,chunk_dplr_delta_rule,parallel_nsa,chunk_comba \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 290 python3 bench/fla_bench.py --fwd-only --only $ops \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-triton --out $r/triton.json > $r/triton.txt 2>&1
echo "triton rc=$?"; date -u >> $r/device.txt
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
python3 - >> $r/compare.txt 2>&1 <<'PY'
import glob, os, torch
print("first outputs, Kiln against Triton:")
for p in sorted(glob.glob("/tmp/out-kiln/*.pt")):
    q = "/tmp/out-triton/" + os.path.basename(p)
    if not os.path.exists(q):
        continue
    a, b = torch.load(q).float(), torch.load(p).float()
    fa, fb = torch.isfinite(a), torch.isfinite(b)
    d = (a[fa & fb] - b[fa & fb]).abs()
    ref = a[fa].abs().max().item() if fa.any() else 0.0
    print(f"  {os.path.basename(p)[:-3]:22} max|diff| {d.max().item():.3e} max|triton| {ref:.3e} "
          f"mean|diff| {d.mean().item():.3e} nonfinite-equal {bool((fa == fb).all())}")
PY
cat $r/compare.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
