#!/usr/bin/env bash
# Session 53, call 3 (fc47a79, with wgmma staging a B in an accumulator layout):
# the GPU dot family against Triton (with the new dot_state_recurrence cases), fla's ops
# whose kernels changed (the recurrent states of simple_gla / retention / gla / gdn / kda,
# kda's recompute_w_u, dplr's state) under Kiln with their first outputs saved, gdn / kda /
# dplr under Triton in this call, the outputs compared elementwise; fla's test_delta.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 60 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1
echo "compare rc=$?"; tail -2 $r/compare-dot.txt; grep -i "state_recurrence" $r/compare-dot.txt
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc timeout 120 python3 -m kiln.run bench/fla_bench.py --fwd-only \
  --only chunk_gdn,chunk_kda,chunk_dplr_delta_rule,chunk_simple_gla,chunk_gla,chunk_retention \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 170 python3 bench/fla_bench.py --fwd-only \
  --only chunk_gdn,chunk_kda,chunk_dplr_delta_rule --reps 20 --warmup 3 --prof-reps 5 \
  --save-outputs /tmp/out-triton --out $r/triton.json > $r/triton.txt 2>&1
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
( cd .ext/fla && KILN_CACHE_DIR=/tmp/kc2 timeout 45 python3 -m kiln.run -m pytest -q -p no:cacheprovider \
    tests/ops/test_delta.py -k "test_chunk and not varlen" > $r/fla-tests.txt 2>&1 )
echo "fla tests rc=$?"; grep -c PASSED $r/fla-tests.txt; grep -c FAILED $r/fla-tests.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
