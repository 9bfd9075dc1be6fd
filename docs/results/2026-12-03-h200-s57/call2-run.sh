#!/usr/bin/env bash
# Session 57, call 2 (H200): the SASS of every kkt config of both compilers (Kiln's PTX from its JIT
# cache through ptxas -arch=sm_90a; Triton's cubins from its cache) and ncu of the one-warp
# configs of both (--sweep-configs narrows the tuner from the first call on).
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kkt_solve_kernel
# Kiln's and Triton's kkt builds for the SASS below (the sweep compiles every config).
KILN_CACHE_DIR=/tmp/kc timeout 50 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 1 --out /tmp/ks.json > /dev/null 2>&1; echo "kiln sweep rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 80 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 1 --out /tmp/ts.json > /dev/null 2>&1; echo "triton sweep rc=$?"
# SASS of every kkt config of both compilers.
mkdir -p $r/sass /tmp/kptx
python3 - <<'PY'
import glob, json, os
for p in glob.glob("/tmp/kc/v1/*/*.kernel"):
    raw = open(p, "rb").read()
    body = json.loads(raw.split(b"\n", 1)[1])
    if "kkt_solve" not in json.dumps(body.get("kernel", "")) and "kkt_solve" not in body.get("ptx", "")[:4000]:
        continue
    name = os.path.basename(p)[:16]
    open(f"/tmp/kptx/{name}.ptx", "w").write(body["ptx"])
PY
for f in /tmp/kptx/*.ptx; do
  b=$(basename $f .ptx)
  ptxas -arch=sm_90a -v $f -o /tmp/kptx/$b.cubin > $r/sass/kiln-$b.ptxas.txt 2>&1
  cuobjdump --dump-sass /tmp/kptx/$b.cubin > $r/sass/kiln-$b.sass 2>&1
  grep -m1 "\.maxntid\|reqntid" $f >> $r/sass/kiln-$b.ptxas.txt
done
for f in $(find /tmp/tc -name "*kkt_solve*.cubin"); do
  b=$(basename $(dirname $f) | cut -c1-16)
  cuobjdump --dump-sass $f > $r/sass/triton-$b.sass 2>&1
  cp $(dirname $f)/*.json $r/sass/triton-$b.json 2>/dev/null
done
ls $r/sass | head -40; pack
# ncu: the one-warp configs of both, one config per run (--sweep-configs narrows the tuner
# from the first call on), the second launch of the kernel profiled.
sec="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SchedulerStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis"
for cfg in "BK=64 w1" "BK=32 w1"; do
  t=$(echo $cfg | tr -d '= ')
  KILN_CACHE_DIR=/tmp/kc timeout 50 ncu $sec -k regex:kkt_solve --launch-skip 1 --launch-count 1 --csv --page raw \
    python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x1.json > $r/ncu-kiln-$t.csv 2> $r/ncu-kiln-$t.err
  echo "ncu kiln $cfg rc=$?"
  TRITON_CACHE_DIR=/tmp/tc timeout 50 ncu $sec -k regex:kkt_solve --launch-skip 1 --launch-count 1 --csv --page raw \
    python3 bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x2.json > $r/ncu-triton-$t.csv 2> $r/ncu-triton-$t.err
  echo "ncu triton $cfg rc=$?"; pack
done
