#!/usr/bin/env bash
# Session 52, call 3, the final code (971781d: B's copy pointers rebased; the barrier move of
# call 2 reverted, it gained nothing): tutorial 03's 8 fp16 configs at 4096^3 and 8192^3 before
# (deef077) and now, the corpus kernels whose PTX changed, the dot family against Triton; ncu
# of the 128 x 256 x 64 / 8 warps config under both compilers (Kiln 0.97 of Triton) for later.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
T=.ext/tools/mm_probe.py
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/km-A timeout 220 python3 bench/matmul_bench.py --sizes 4096,8192 --json $r/mm-A.json > $r/mm-A.txt 2>&1; echo "matmul before rc=$?"
KILN_CACHE_DIR=/tmp/km-N timeout 220 python3 bench/matmul_bench.py --sizes 4096,8192 --json $r/mm-N.json > $r/mm-N.txt 2>&1; echo "matmul now rc=$?"
python3 - $r <<'PY'
import json, sys
r = sys.argv[1]
best = {}
for tag in "AN":
    for x in json.load(open(f"{r}/mm-{tag}.json")):
        if not isinstance(x, dict) or not x.get("tflops"): continue
        key = ("triton-" + tag if x["compiler"] == "triton" else "kiln-" + tag, x["size"], tuple(x["config"]))
        best[key] = max(best.get(key, 0), x["tflops"])
keys = sorted({(s, c) for _, s, c in best})
print("%-5s %-26s %7s %7s %7s %7s  A/TA  N/TN" % ("size", "config", "T(A)", "before", "T(N)", "now"))
for s, c in keys:
    ta, a, tn, n = (best.get((k, s, c), 0) for k in ("triton-A", "kiln-A", "triton-N", "kiln-N"))
    print("%-5d %-26s %7.1f %7.1f %7.1f %7.1f  %.3f %.3f" % (s, c, ta, a, tn, n, a / (ta or 1), n / (tn or 1)))
PY
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
C="matmul_kernel,bmm_bias_kernel,moe_gemm_kernel"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kcA timeout 120 python3 bench/corpus_run.py --filter $C --json $r/corpus-A.json > $r/corpus-A.txt 2>&1; echo "corpus before rc=$?"
KILN_CACHE_DIR=/tmp/kcN timeout 120 python3 bench/corpus_run.py --filter $C --json $r/corpus-N.json > $r/corpus-N.txt 2>&1; echo "corpus now rc=$?"
tail -3 $r/corpus-A.txt; tail -3 $r/corpus-N.txt
date -u >> $r/device.txt
mkdir -p $r/ncu
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables --section SourceCounters"
TRITON_CACHE_DIR=/tmp/tc3 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 $T run 128,256,64,8,3,8 > $r/ncu/triton.txt 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc3 timeout 100 $NCU -k regex:matmul_kernel --launch-skip 2 --launch-count 1 python3 -m kiln.run $T run 128,256,64,8,3,8 > $r/ncu/kiln.txt 2>&1; echo "ncu kiln rc=$?"
grep -E "Duration|Executed Instructions  |Warp Cycles Per Issued|Compute \(SM\) Throughput|Memory Throughput|Bank Conflicts|Stall" $r/ncu/triton.txt $r/ncu/kiln.txt | cut -c1-160 | head -30
for f in $(find /tmp/kc3 -type f -name "*.cubin"); do python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(d[d.index(b'\\n')+1:])" $f $r/ncu/kiln.cubin; done
cuobjdump -sass $r/ncu/kiln.cubin > $r/ncu/kiln.sass 2>&1
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
