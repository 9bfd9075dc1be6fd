#!/usr/bin/env bash
# Session 48, call 3: why Liger's dI (BM128 BN128 BK64 G8 w4 s3) is ~1.06x Triton's time after
# the chain change: both compilers' PTX / SASS of the kernel, and ncu's per-instruction stall
# sampling (source page, SASS) of one launch under each.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r/k $r/t
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
CFG="BM128 BN128 BK64 G8 w4 s3"
TRITON_CACHE_DIR=/tmp/tc5 timeout 60 python3 .ext/tools/liger_configs.py dI "$CFG" > $r/t/run.txt 2>&1; echo "triton rc=$?"
KILN_CACHE_DIR=/tmp/kc5 timeout 60 python3 -m kiln.run .ext/tools/liger_configs.py dI "$CFG" > $r/k/run.txt 2>&1; echo "kiln rc=$?"
find /tmp/tc5 -name "*backward_dI*" | head; find /tmp/kc5 -type f | head
for f in $(find /tmp/tc5 -name "_swiglu_kernel_backward_dI.*"); do cp $f $r/t/; done
# Kiln's cache entries: one header line, then the payload.
for f in $(find /tmp/kc5 -type f -name "*.cubin"); do python3 -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(d[d.index(b'\\n')+1:])" $f $r/k/$(basename $f); done
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for c in $r/t/*.cubin $r/k/*.cubin; do [ -f "$c" ] && $CUOBJ -sass $c > $c.sass 2>&1; done
ls -la $r/t $r/k
NCU="ncu --clock-control none --section WarpStateStats --section SourceCounters --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc5 timeout 120 $NCU -k regex:_swiglu_kernel_backward_dI --launch-skip 1 --launch-count 1 python3 .ext/tools/liger_configs.py dI "$CFG" > $r/t/ncu-src.csv 2>&1; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc5 timeout 120 $NCU -k regex:_swiglu_kernel_backward_dI --launch-skip 1 --launch-count 1 python3 -m kiln.run .ext/tools/liger_configs.py dI "$CFG" > $r/k/ncu-src.csv 2>&1; echo "ncu kiln rc=$?"
wc -l $r/t/ncu-src.csv $r/k/ncu-src.csv; head -c 600 $r/k/ncu-src.csv
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
