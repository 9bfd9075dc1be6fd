#!/usr/bin/env bash
# Session 54, call 2 (layout conversions by warp shuffles within a warp): the GPU dot and
# shape families against Triton (new dot_block_solve cases: fla's kkt solve at 1-4 warps),
# fla's gated delta net / KDA / GLA forward under both compilers with every autotuning
# config's time recorded (kernel_timing "tuning"; Kiln at Triton's 25 + 100 ms budget),
# outputs compared; Triton's TTGIR of the kkt solve kept for reference.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
[ -n "${SKIP_COMPARE:-}" ] || KILN_CACHE_DIR=/tmp/kc0 timeout 170 python3 test/gpu/compare_kernels.py --only dot,shape > $r/compare-dot-shape.txt 2>&1
echo "compare rc=$?"; tail -1 $r/compare-dot-shape.txt; grep -E "^FAIL|block_solve" $r/compare-dot-shape.txt | head -20
date -u >> $r/device.txt
ops=chunk_gdn,chunk_kda,chunk_gla
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc timeout 90 python3 -m kiln.run bench/fla_bench.py --fwd-only --only $ops \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 250 python3 bench/fla_bench.py --fwd-only --only $ops \
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
mkdir -p $r/ttgir
for f in $(grep -l "kkt_solve_kernel\|chunk_local_cumsum_vector" -r /tmp/tc --include=*.ttgir 2>/dev/null | head -6); do
  cp "$f" $r/ttgir/$(basename $(dirname $f))-$(basename $f); done
ls $r/ttgir | head
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
