#!/usr/bin/env bash
# Session 42, call 6: why lightllm's flash decoding stage 1 (1.10) and GELU gate (1.15) run slower
# than Triton's with the same layouts and memory instructions: SASS of Kiln's PTX (local ptxas 13.0:
# whole program and relocatable) and of Triton's cubins (its cache), by Triton's cuobjdump; ncu's
# per-instruction stall samples of stage 1 under both compilers.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
bin=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
ls $bin >> $r/device.txt
for c in .device/sass/*.cubin; do $bin/cuobjdump -sass $c > $r/$(basename $c .cubin).sass 2>&1; echo "$c rc=$? $(grep -c '^\s*/\*[0-9a-f]*\*/' $r/$(basename $c .cubin).sass)"; done
B=bench/lightllm_bench.py
NCU="ncu --clock-control none --section SourceCounters --section WarpStateStats --page source --print-source sass --csv"
TRITON_CACHE_DIR=/tmp/tc timeout 100 $NCU -k regex:flash_decode_stage1 --launch-skip 3 --launch-count 1 python3 $B --only flash_decoding > $r/ncu-src-triton.csv 2> $r/ncu-src-triton.err; echo "ncu triton rc=$?"
KILN_CACHE_DIR=/tmp/kc timeout 100 $NCU -k regex:flash_decode_stage1 --launch-skip 3 --launch-count 1 python3 -m kiln.run $B --only flash_decoding > $r/ncu-src-kiln.csv 2> $r/ncu-src-kiln.err; echo "ncu kiln rc=$?"
wc -l $r/*.csv; head -3 $r/ncu-src-kiln.csv | cut -c1-400
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
