#!/usr/bin/env bash
# Session 55, call 3: the shared operand slots (75abe92) against the code before them
# (622faab's libkiln, .device/libkiln-base.so.xz) on flash-linear-attention's ops, forward
# and backward: first outputs and every input gradient compared bitwise, times per kernel;
# and Triton's kkt solve (PTX, TTGIR) kept for reading.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/fla_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
xz -dc .device/libkiln-base.so.xz > /tmp/libkiln-base.so
export PYTHONPATH=/tmp/kiln-bundle/python
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
ops=chunk_kda,chunk_gla,chunk_delta_rule,chunk_dplr_delta_rule,chunk_gdn,chunk_simple_gla,chunk_rwkv7,chunk_rwkv6,parallel_attn,parallel_nsa,chunk_retention,chunk_linear_attn,chunk_lightning_attn,fused_recurrent_hgrn
for v in base new; do
  lib=/tmp/kiln-bundle/python/kiln/libkiln.so; [ $v = base ] && lib=/tmp/libkiln-base.so
  KILN_LIBRARY=$lib KILN_CACHE_DIR=/tmp/kc-$v timeout 170 python3 -m kiln.run bench/fla_bench.py --only $ops \
    --reps 5 --warmup 2 --prof-reps 3 --save-outputs /tmp/out-$v --out $r/kiln-$v.json > $r/kiln-$v.txt 2>&1
  echo "kiln $v rc=$?"; date -u >> $r/device.txt
done
python3 bench/fla_bench.py --compare $r/kiln-base.json $r/kiln-new.json > $r/compare-base-new.txt 2>&1
python3 - > $r/outputs-base-new.txt 2>&1 <<'PY'
import glob, os, torch
same = differ = 0
for p in sorted(glob.glob("/tmp/out-new/*.pt")):
    q = "/tmp/out-base/" + os.path.basename(p)
    if not os.path.exists(q):
        continue
    a, b = torch.load(q), torch.load(p)
    nan = (a.isnan() & b.isnan()) if a.is_floating_point() and a.shape == b.shape else False
    if a.shape == b.shape and bool(((a == b) | nan).all()):
        same += 1
        continue
    differ += 1
    a, b = a.float(), b.float()
    d = (a - b).abs()
    print(f"DIFF {os.path.basename(p)[:-3]:34} max|diff| {d.max().item():.3e} max|base| {a.abs().max().item():.3e}")
print(f"{same} tensors bitwise equal, {differ} differ (of {len(glob.glob('/tmp/out-new/*.pt'))} new, {len(glob.glob('/tmp/out-base/*.pt'))} base)")
PY
cat $r/outputs-base-new.txt | tail -20
head -30 $r/compare-base-new.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
TRITON_CACHE_DIR=/tmp/tc timeout 100 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 3 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; date -u >> $r/device.txt
mkdir -p $r/triton-kkt
for f in $(grep -l "kkt_solve_kernel" -r /tmp/tc --include=*.ttgir 2>/dev/null | head -8); do
  d=$(dirname $f); n=$(basename $d)
  cp $f $r/triton-kkt/$n.ttgir; cp $d/*.ptx $r/triton-kkt/$n.ptx 2>/dev/null
  python3 -c "import json,glob; j=json.load(open(glob.glob('$d/*.json')[0])); print('$n', 'warps', j.get('num_warps'), 'shared', j.get('shared'), j.get('constants', ''))" >> $r/triton-kkt/index.txt 2>&1
done
cat $r/triton-kkt/index.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
