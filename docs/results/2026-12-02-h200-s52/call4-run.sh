#!/usr/bin/env bash
# Session 52, call 4 (final code 971781d + the alternating matmul_bench): is tutorial 03's
# 128 x 128 x 32 config at 8192^3 (0.93 of Triton in call 3) slower, or did the clocks drift
# (matmul_bench timed Triton first, Kiln second, once)? Kiln's PTX and Triton's cubin / PTX
# through one harness in alternating rounds at 4096^3 and 8192^3; ncu of both at 8192^3;
# matmul_bench at both sizes with 3 alternating rounds per config.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/ncu
T=.ext/tools/mm_probe.py P=.ext/tools/probe_mm
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
F="$P/kiln-bm128-bn128.ptx:65536 $P/triton-bm128-bn128.cubin:65536 $P/triton-bm128-bn128.ptx:65536"
for S in 4096 8192; do MM_SIZE=$S MM_ROUNDS=6 timeout 150 python3 $T time $F > $r/time-$S.jsonl 2>&1; echo "time $S rc=$?"; cut -c1-300 $r/time-$S.jsonl; done
date -u >> $r/device.txt
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables"
NCUS="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc4 MM_SIZE=8192 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run > $r/ncu/triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc4 MM_SIZE=8192 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run > $r/ncu/kiln.txt 2>&1; echo "ncu kiln rc=$?"
TRITON_CACHE_DIR=/tmp/tc4 MM_SIZE=8192 timeout 100 $NCUS -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run > $r/ncu/triton-src.csv 2>&1; echo "ncus triton rc=$?"
KILN_CACHE_DIR=/tmp/kc4 MM_SIZE=8192 timeout 100 $NCUS -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run > $r/ncu/kiln-src.csv 2>&1; echo "ncus kiln rc=$?"
grep -E "Duration|Executed Instructions  |Registers Per|Achieved Occupancy|L2 Hit Rate|L1/TEX Hit|DRAM Throughput|Compute \(SM\) Throughput" $r/ncu/triton.txt $r/ncu/kiln.txt | cut -c1-160
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/km-N timeout 300 python3 bench/matmul_bench.py --sizes 4096,8192 --rounds 3 --json $r/mm.json > $r/mm.txt 2>&1; echo "matmul rc=$?"
python3 - $r <<'PY'
import json, sys
rows = json.load(open(sys.argv[1] + "/mm.json"))
by = {}
for x in rows:
    by.setdefault((x["size"], tuple(x["config"])), {})[x["compiler"]] = x
print("%-5s %-26s %7s %7s  K/T   rounds (ms) triton | kiln" % ("size", "config", "triton", "kiln"))
for (s, c), d in sorted(by.items()):
    t, k = d.get("triton", {}), d.get("kiln", {})
    print("%-5d %-26s %7.1f %7.1f  %.3f  %s | %s" % (s, c, t.get("tflops", 0), k.get("tflops", 0),
          k.get("tflops", 0) / (t.get("tflops") or 1), " ".join("%.4f" % v for v in t.get("rounds_ms", [])),
          " ".join("%.4f" % v for v in k.get("rounds_ms", []))))
PY
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
