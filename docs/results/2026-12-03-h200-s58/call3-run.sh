#!/usr/bin/env bash
# Session 58, call 3 (H200): fp32 scalars of a pipelined loop copied ahead into slots (as
# Triton does) instead of carried in registers. fla's gated-delta-net state kernel config by
# config under both compilers (call 2 is the before), the gated delta net forward's outputs
# against Triton's, the dot family of compare_kernels (dot_state_recurrence, dot_scaled_kloop
# read such scalars), and mamba's chunk state / scan kernels config by config.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kernel_h_blockdim64
KILN_CACHE_DIR=/tmp/kc timeout 90 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn \
  --sweep $k --prof-reps 5 --out $r/kiln-sweep.json > $r/kiln-sweep.txt 2>&1
echo "kiln sweep rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-sweep.json > $r/compare-sweep.txt 2>&1
head -16 $r/compare-sweep.txt
KILN_AUTOTUNE_MS=25,100 KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run bench/fla_bench.py --fwd-only \
  --only chunk_gdn,chunk_kda --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-kiln --out $r/kiln.json > $r/kiln.txt 2>&1
echo "kiln fwd rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc2 timeout 120 python3 bench/fla_bench.py --fwd-only --only chunk_gdn,chunk_kda \
  --reps 20 --warmup 3 --prof-reps 5 --save-outputs /tmp/out-triton --out $r/triton.json > $r/triton.txt 2>&1
echo "triton fwd rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton.json $r/kiln.json > $r/compare.txt 2>&1
head -30 $r/compare.txt
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
print(f"triton vs kiln: {same} tensors bitwise equal, {differ} differ")
PY
cat $r/outputs.txt | tail -8; pack
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $r/compare-dot.txt 2>&1
echo "compare dot rc=$?"; tail -3 $r/compare-dot.txt; pack
timeout 120 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-triton.json > $r/mk-triton.txt 2>&1; echo "mk triton rc=$?"
KILN_CACHE_DIR=/tmp/kc-N timeout 90 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-kiln.json > $r/mk-kiln.txt 2>&1; echo "mk kiln rc=$?"
pack
