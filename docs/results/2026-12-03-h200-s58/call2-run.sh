#!/usr/bin/env bash
# Session 58, call 2 (H200): fla's gated-delta-net state kernel
# (chunk_gated_delta_rule_fwd_kernel_h_blockdim64), 1.21-1.23x Triton's time at both tuners'
# pick in session 54: every config under both compilers (fla_bench --sweep), Triton's PTX and
# both compilers' SASS of BV=64 w4 s4 / s3, and ncu (raw counters, and the source view) of
# BV=64 w4 s4 under both.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
k=chunk_gated_delta_rule_fwd_kernel_h_blockdim64
KILN_DUMP_COMPILES=$r/compiles.sh KILN_CACHE_DIR=/tmp/kc timeout 90 python3 -m kiln.run bench/fla_bench.py --only chunk_gdn \
  --sweep $k --prof-reps 5 --out $r/kiln-sweep.json > $r/kiln-sweep.txt 2>&1
echo "kiln sweep rc=$?"; pack
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/fla_bench.py --only chunk_gdn --sweep $k \
  --prof-reps 5 --out $r/triton-sweep.json > $r/triton-sweep.txt 2>&1
echo "triton sweep rc=$?"; pack
python3 bench/fla_bench.py --compare $r/triton-sweep.json $r/kiln-sweep.json > $r/compare-sweep.txt 2>&1
cat $r/compare-sweep.txt | head -16
mkdir -p $r/sass /tmp/kptx
python3 - <<'PY'
import glob, json, os
for p in glob.glob("/tmp/kc/v1/*/*.kernel"):
    raw = open(p, "rb").read()
    body = json.loads(raw.split(b"\n", 1)[1])
    ptx = body.get("ptx", "")
    if "kernel_h_blockdim64" not in ptx[:6000]:
        continue
    open("/tmp/kptx/%s.ptx" % os.path.basename(p)[:16], "w").write(ptx)
PY
for f in /tmp/kptx/*.ptx; do
  b=$(basename $f .ptx)
  ptxas -arch=sm_90a -v $f -o /tmp/kptx/$b.cubin > $r/sass/kiln-$b.ptxas.txt 2>&1
  cuobjdump --dump-sass /tmp/kptx/$b.cubin > $r/sass/kiln-$b.sass 2>&1
  grep -m3 "\.maxntid\|reqntid\|num-stages\|kiln" $f >> $r/sass/kiln-$b.ptxas.txt
done
for f in $(find /tmp/tc -name "*kernel_h_blockdim64*.cubin"); do
  b=$(basename $(dirname $f) | cut -c1-16)
  cuobjdump --dump-sass $f > $r/sass/triton-$b.sass 2>&1
  cp $(dirname $f)/*.json $r/sass/triton-$b.json 2>/dev/null
  cp $(dirname $f)/*.ptx $r/sass/triton-$b.ptx 2>/dev/null
done
ls $r/sass | wc -l; pack
sec="--section SpeedOfLight --section WarpStateStats --section InstructionStats --section SchedulerStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis"
cfg="BV=64 w4 s4"
KILN_CACHE_DIR=/tmp/kc timeout 60 ncu $sec -k regex:kernel_h_blockdim64 --launch-skip 1 --launch-count 1 --csv --page raw \
  python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x1.json > $r/ncu-kiln.csv 2> $r/ncu-kiln.err
echo "ncu kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 60 ncu $sec -k regex:kernel_h_blockdim64 --launch-skip 1 --launch-count 1 --csv --page raw \
  python3 bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x2.json > $r/ncu-triton.csv 2> $r/ncu-triton.err
echo "ncu triton rc=$?"; pack
SRC="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
KILN_CACHE_DIR=/tmp/kc timeout 60 $SRC -k regex:kernel_h_blockdim64 --launch-skip 1 --launch-count 1 \
  python3 -m kiln.run bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x3.json > $r/src-kiln.csv 2> $r/src-kiln.err
echo "src kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc timeout 60 $SRC -k regex:kernel_h_blockdim64 --launch-skip 1 --launch-count 1 \
  python3 bench/fla_bench.py --only chunk_gdn --sweep $k --sweep-configs "$cfg" --prof-reps 1 --out /tmp/x4.json > $r/src-triton.csv 2> $r/src-triton.err
echo "src triton rc=$?"
gzip $r/*.csv; tar czf $r/sass.tgz -C $r sass && rm -rf $r/sass; pack
