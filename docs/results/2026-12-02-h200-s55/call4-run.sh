#!/usr/bin/env bash
# Session 55, call 4 (the code of this session's last codegen commit: shared operand slots,
# fragments of a slot loaded once for the dots that read it the same way, shuffle selects
# counted as issue slots, bar.warp.sync in one-warp programs): the GPU dot and shape families
# against Triton; fla's kkt solve config by config and the gated delta net forward under both
# compilers (outputs compared); KDA and GLA forward and backward under 622faab's libkiln and
# this one (outputs and gradients compared bitwise, kernel times side by side).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
xz -dc .device/libkiln-base.so.xz > /tmp/libkiln-base.so
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }  # after each stage: a cut run keeps it
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot,shape > $r/compare-dot-shape.txt 2>&1
echo "compare rc=$?"; tail -1 $r/compare-dot-shape.txt; grep -E "^FAIL" $r/compare-dot-shape.txt | head -20
pack
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
KILN_CACHE_DIR=/tmp/kc timeout 45 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/kiln-sweep.json > $r/kiln-sweep.txt 2>&1
echo "kiln sweep rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-sweep.json > $r/compare-sweep.txt 2>&1
cat $r/compare-sweep.txt
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc2 timeout 45 python3 -m kiln.run bench/fla_bench.py --fwd-only \
  --only chunk_gdn --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc timeout 50 python3 bench/fla_bench.py --fwd-only --only chunk_gdn \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-triton --out $r/triton.json > $r/triton.txt 2>&1
echo "triton rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
head -9 $r/compare.txt
for v in base new; do
  lib=/tmp/kiln-bundle/python/kiln/libkiln.so; [ $v = base ] && lib=/tmp/libkiln-base.so
  KILN_LIBRARY=$lib KILN_CACHE_DIR=/tmp/kc-$v timeout 60 python3 -m kiln.run bench/fla_bench.py --only chunk_kda,chunk_gla \
    --reps 5 --warmup 2 --prof-reps 3 --save-outputs /tmp/out-$v --out $r/kiln-$v.json > $r/kiln-$v.txt 2>&1
  echo "kiln $v rc=$?"; pack
done
python3 bench/fla_bench.py --compare $r/kiln-base.json $r/kiln-new.json > $r/compare-base-new.txt 2>&1
python3 - > $r/outputs.txt 2>&1 <<'PY'
import glob, os, torch
def compare(a_dir, b_dir, label):
    same = differ = 0
    for p in sorted(glob.glob(b_dir + "/*.pt")):
        q = os.path.join(a_dir, os.path.basename(p))
        if not os.path.exists(q):
            continue
        a, b = torch.load(q), torch.load(p)
        nan = (a.isnan() & b.isnan()) if a.is_floating_point() and a.shape == b.shape else False
        if a.shape == b.shape and bool(((a == b) | nan).all()):
            same += 1
            continue
        differ += 1
        d = (a.float() - b.float()).abs()
        print(f"{label} DIFF {os.path.basename(p)[:-3]:30} max|diff| {d.max().item():.3e} max|ref| {a.float().abs().max().item():.3e}")
    print(f"{label}: {same} tensors bitwise equal, {differ} differ")
compare("/tmp/out-triton", "/tmp/out-kiln", "triton vs kiln (chunk_gdn)")
compare("/tmp/out-base", "/tmp/out-new", "kiln 622faab vs new (kda, gla)")
PY
cat $r/outputs.txt
grep -E "^chunk|kernel" $r/compare-base-new.txt | head -40
pack
