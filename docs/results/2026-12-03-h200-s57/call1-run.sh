#!/usr/bin/env bash
# Session 57, call 1 (H200): the LayerNorm forward at BLOCK_N 16384 under the plan that keeps
# many rows chunked (fp16 / bf16, 4096 and 65536 rows, against torch.compile and the copy);
# fla's kkt solve config by config under Triton and Kiln (B fragments read two n-tiles per
# ldmatrix.x4; the compiles logged by KILN_DUMP_COMPILES); the gated delta net forward,
# outputs compared with Triton's; every dot case of compare_kernels against Triton.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kl timeout 90 python3 bench/layernorm_best.py --out $r/ln --tag fwd16k --mode fwd \
  --dtype fp16,bf16 --M 4096,65536 --N 16384 --columns kiln,compiled,copy --max-seconds 70 > $r/ln-fwd-16384.log 2>&1
echo "ln rc=$?"; grep "^fwd" $r/ln-fwd-16384.log; pack
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
for v in new; do
  KILN_DUMP_COMPILES=$r/compiles-$v.sh KILN_CACHE_DIR=/tmp/kc-$v timeout 50 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn \
    --sweep $k --prof-reps 5 --out $r/kiln-$v-sweep.json > $r/kiln-$v-sweep.txt 2>&1
  echo "kiln $v sweep rc=$?"; pack
done
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
for v in new; do
  python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-$v-sweep.json > $r/compare-sweep-$v.txt 2>&1
  echo "== Triton vs Kiln $v"; cat $r/compare-sweep-$v.txt | head -20
done
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc2 timeout 50 python3 -m kiln.run bench/fla_bench.py --fwd-only \
  --only chunk_gdn --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc2 timeout 60 python3 bench/fla_bench.py --fwd-only --only chunk_gdn \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-triton --out $r/triton.json > $r/triton.txt 2>&1
echo "triton rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
head -14 $r/compare.txt
python3 - > $r/outputs.txt 2>&1 <<'PY'
import glob, os, torch
same = differ = 0
for p in sorted(glob.glob("/tmp/out-kiln/*.pt")):
    q = os.path.join("/tmp/out-triton", os.path.basename(p))
    if not os.path.exists(q):
        continue
    a, b = torch.load(q), torch.load(p)
    if a.shape == b.shape and bool((a == b).all()):
        same += 1
        continue
    differ += 1
    d = (a.float() - b.float()).abs()
    print(f"DIFF {os.path.basename(p)[:-3]:30} max|diff| {d.max().item():.3e} max|ref| {a.float().abs().max().item():.3e}")
print(f"triton vs kiln (chunk_gdn): {same} tensors bitwise equal, {differ} differ")
PY
cat $r/outputs.txt; pack
KILN_CACHE_DIR=/tmp/kc0 timeout 140 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1
echo "compare dot rc=$?"; tail -3 $r/compare-dot.txt; pack
