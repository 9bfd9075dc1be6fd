#!/usr/bin/env bash
# Session 55, call 2 (--tile-share-dot-operands: a tile several mma.sync dots read is stored
# once into a slot they all read; mma.sync reads 16-bit slots through a transpose): the GPU
# dot family against Triton (new dot_gram_blocks cases: fla's kkt K loop in small), fla's kkt
# solve config by config under both compilers, and fla's gated delta net forward under both
# with outputs compared.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 200 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1
echo "compare rc=$?"; tail -1 $r/compare-dot.txt; grep -E "^FAIL|gram_blocks|block_solve" $r/compare-dot.txt | head -20
date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
KILN_CACHE_DIR=/tmp/kc timeout 60 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/kiln-sweep.json > $r/kiln-sweep.txt 2>&1
echo "kiln sweep rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; date -u >> $r/device.txt
python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-sweep.json > $r/compare-sweep.txt 2>&1
cat $r/compare-sweep.txt
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run bench/fla_bench.py --fwd-only \
  --only chunk_gdn --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 bench/fla_bench.py --fwd-only --only chunk_gdn \
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
head -12 $r/compare.txt; tail -8 $r/compare.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
