#!/usr/bin/env bash
# Session 27, call 2: why chunk_scan at 32x64 / 2 warps is 1.25x Triton: both compilers'
# PTX, SASS and ncu for that config; 32-bit shared-memory pointers (nvptx-short-ptr) on
# and off per config; the dot family against Triton with the new cases.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
TBIN=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
ls $TBIN
mkdir -p $OUT/triton-scan $OUT/kiln-scan
TRITON_CACHE_DIR=/tmp/tc2 timeout 60 python3 bench/mamba_kernels_bench.py --only chunk_scan --config 9 > $OUT/triton-scan/run.txt 2>&1; echo "triton rc=$?"
for d in $(grep -l '"_chunk_scan_fwd_kernel"' /tmp/tc2/*/*.json | xargs -n1 dirname); do cp $d/* $OUT/triton-scan/; done
KILN_CACHE_DIR=/tmp/kc2 timeout 60 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_scan --config 9 > $OUT/kiln-scan/run.txt 2>&1; echo "kiln rc=$?"
find /tmp/kc2 -type f | head -20; find /tmp/kc2 -type f -exec cp {} $OUT/kiln-scan/ \;
for f in $OUT/triton-scan/*.cubin $OUT/kiln-scan/*; do
  if head -c 4 "$f" | grep -q ELF; then $TBIN/cuobjdump -sass "$f" > "$f.sass" 2>&1; echo "$f: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $f.sass) SASS"; fi
done
for who in triton kiln; do
  if [ $who = kiln ]; then py="python3 -m kiln.run"; else py=python3; fi
  TRITON_CACHE_DIR=/tmp/tc2 KILN_CACHE_DIR=/tmp/kc2 timeout 120 ncu --kernel-name regex:_chunk_scan_fwd --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables $py bench/mamba_kernels_bench.py --only chunk_scan --config 9 > $OUT/ncu-$who.txt 2>&1; echo "ncu $who rc=$?"
  grep -E "Duration|Registers Per|Executed Instructions  |Issued Instructions  |Theoretical Occ|Warp Cycles Per Issued|Dynamic Shared" $OUT/ncu-$who.txt
done
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $OUT/compare-dot.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare-dot.txt | tail -8
export TRITON_CACHE_DIR=/tmp/tc-mk
echo "== triton"; timeout 100 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-triton.json > $OUT/mk-triton.txt 2>&1; echo rc=$?
for mode in long short; do
  case $mode in long) e=KILN_NO_SHORTPTR=1;; short) e=KILN_X=1;; esac
  echo "== kiln $mode"; env $e KILN_CACHE_DIR=/tmp/kc-$mode timeout 60 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $OUT/mk-kiln-$mode.json > $OUT/mk-kiln-$mode.txt 2>&1; echo rc=$?
done
python3 - $OUT <<'PY'
import json, sys
o = sys.argv[1]
t = json.load(open(o + "/mk-triton.json"))["rows"]
ks = {m: json.load(open(o + "/mk-kiln-%s.json" % m))["rows"] for m in ("long", "short")}
print("%-12s %-44s %7s %7s %7s" % ("op", "config", "triton", "long", "short"))
for i, a in enumerate(t):
    f = lambda r: "%.1f" % r["kernel_us"] if r.get("kernel_us") else "-"
    print("%-12s %-44s %7s %7s %7s" % (a["op"], a["config"], f(a), *(f(ks[m][i]) for m in ("long", "short"))))
PY
