#!/usr/bin/env bash
# Session 49, call 3 (5888f3b, the final code: epilogue TMA copies move up only where their
# slot fits): compare_kernels desc / tma / ragged / dot against Triton again, and Liger's dGU
# and dI best configs under both.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 300 python3 test/gpu/compare_kernels.py --only desc,tma,ragged,dot > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-220 | tail -8
gzip -9 $r/compare.txt
date -u >> $r/device.txt
export PYTHONPATH=$PYTHONPATH:$PWD/.ext/liger/src
TRITON_CACHE_DIR=/tmp/tc2 timeout 100 python3 .ext/tools/liger_configs.py dI,dGU "BM128 BN128 BK64 G8 w4 s3" > $r/lg-triton.jsonl 2> $r/lg-triton.err; echo "liger cfg triton rc=$?"
KILN_CACHE_DIR=/tmp/kc2 timeout 100 python3 -m kiln.run .ext/tools/liger_configs.py dI,dGU "BM128 BN128 BK64 G8 w4 s3" > $r/lg-kiln.jsonl 2> $r/lg-kiln.err; echo "liger cfg kiln rc=$?"
paste <(grep '^{' $r/lg-triton.jsonl) <(grep '^{' $r/lg-kiln.jsonl)
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
