#!/usr/bin/env bash
# Session 57, call 3 (H200): where the kkt solve's one-warp time goes: ncu source counters
# (stall samples per SASS instruction) of Kiln's and Triton's BK=64 w1 build; then what
# torch.compile runs for the LayerNorm forward at 16384 columns (its generated Triton kernel,
# TORCH_LOGS=output_code) and Kiln's launch-parameter tune there (fp16, 65536 rows).
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
SRC="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
KILN_CACHE_DIR=/tmp/kc timeout 60 $SRC -k regex:kkt_solve --launch-skip 1 --launch-count 1 \
  python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "BK=64 w1" --prof-reps 1 --out /tmp/x1.json > $r/src-kiln.csv 2> $r/src-kiln.err
echo "src kiln rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc timeout 60 $SRC -k regex:kkt_solve --launch-skip 1 --launch-count 1 \
  python3 bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "BK=64 w1" --prof-reps 1 --out /tmp/x2.json > $r/src-triton.csv 2> $r/src-triton.err
echo "src triton rc=$?"; gzip $r/src-*.csv; pack
TORCH_LOGS=output_code timeout 90 python3 - > $r/inductor-ln.txt 2>&1 <<'PY'
import torch
f = torch.compile(torch.nn.functional.layer_norm, dynamic=False)
for m in (4096, 65536):
    x = torch.randn(m, 16384, device="cuda", dtype=torch.float16)
    w = torch.randn(16384, device="cuda", dtype=torch.float16)
    b = torch.randn(16384, device="cuda", dtype=torch.float16)
    f(x, (16384,), w, b, 1e-5)
    torch.cuda.synchronize()
    print("done", m)
PY
echo "inductor rc=$?"; grep -n "num_warps\|XBLOCK\|R0_BLOCK\|RBLOCK\|def triton\|persistent\|reduction_hint" $r/inductor-ln.txt | head -40; pack
KILN_CACHE_DIR=/tmp/kl timeout 200 python3 bench/layernorm_best.py --out $r/ln --tag tune16k --mode fwd --tune \
  --dtype fp16 --M 65536 --N 16384 --columns kiln --max-seconds 170 > $r/ln-tune.log 2>&1
echo "tune rc=$?"; grep -v "^\s*$" $r/ln-tune.log | tail -40; pack
